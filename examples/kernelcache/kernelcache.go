// Package kernelcache loads GPU kernels from code-object files and keeps
// their handles, the way inference servers warm up their kernels.
//
// It is one of hiplint's example programs: HasKernel leaks its module when
// the kernel is missing from the code object (HL2001). LaunchOnce, Kernel and
// Open with its Close method are the safe twins.
package kernelcache

/*
#cgo CFLAGS: -I${SRCDIR}/../../testdata/include
#include <stdlib.h>
#include <hip/hip_runtime_api.h>
*/
import "C"

import (
	"fmt"
	"sync"
	"unsafe"
)

// check turns a HIP status into a Go error.
func check(r C.hipError_t) error {
	if r == C.hipSuccess {
		return nil
	}
	return fmt.Errorf("hip error %d: %s", int(r), C.GoString(C.hipGetErrorString(r)))
}

// HasKernel reports whether the code object at path defines kernel name.
// When hipModuleGetFunction fails, the early return leaves the module loaded:
// a server that probes many files leaks one module per miss.
func HasKernel(path, name string) (bool, error) {
	cpath := C.CString(path)
	defer C.free(unsafe.Pointer(cpath))
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))

	var m C.hipModule_t
	if err := check(C.hipModuleLoad(&m, cpath)); err != nil { // hazard: HL2001
		return false, fmt.Errorf("load %s: %w", path, err)
	}
	var f C.hipFunction_t
	if err := check(C.hipModuleGetFunction(&f, m, cname)); err != nil {
		return false, fmt.Errorf("kernel %s in %s: %w", name, path, err)
	}
	return true, check(C.hipModuleUnload(m))
}

// LaunchOnce loads the code object, launches kernel name once and unloads the
// module on every path: the defer comes right after the load's error check.
func LaunchOnce(path, name string, blocks uint32) error {
	cpath := C.CString(path)
	defer C.free(unsafe.Pointer(cpath))
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))

	var m C.hipModule_t
	if err := check(C.hipModuleLoad(&m, cpath)); err != nil {
		return fmt.Errorf("load %s: %w", path, err)
	}
	defer C.hipModuleUnload(m)

	var f C.hipFunction_t
	if err := check(C.hipModuleGetFunction(&f, m, cname)); err != nil {
		return fmt.Errorf("kernel %s in %s: %w", name, path, err)
	}
	return check(C.hipModuleLaunchKernel(f, C.uint(blocks), 1, 1, 256, 1, 1, 0, nil, nil, nil))
}

// cache keeps every module this process loads for the life of the process:
// kernels stay valid until exit, so nothing is ever unloaded.
var cache struct {
	sync.Mutex
	modules map[string]C.hipModule_t
}

// Kernel returns kernel name from the code object at path, loading the
// module once and keeping it in the process-wide cache.
func Kernel(path, name string) (C.hipFunction_t, error) {
	cache.Lock()
	defer cache.Unlock()
	m, ok := cache.modules[path]
	if !ok {
		cpath := C.CString(path)
		defer C.free(unsafe.Pointer(cpath))
		if err := check(C.hipModuleLoad(&m, cpath)); err != nil {
			return nil, fmt.Errorf("load %s: %w", path, err)
		}
		if cache.modules == nil {
			cache.modules = make(map[string]C.hipModule_t)
		}
		cache.modules[path] = m
	}
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))
	var f C.hipFunction_t
	if err := check(C.hipModuleGetFunction(&f, m, cname)); err != nil {
		return nil, fmt.Errorf("kernel %s in %s: %w", name, path, err)
	}
	return f, nil
}

// Kernels owns one module; Close unloads it.
type Kernels struct {
	module C.hipModule_t
}

// Open loads the code object at path; the caller must Close the result.
func Open(path string) (*Kernels, error) {
	cpath := C.CString(path)
	defer C.free(unsafe.Pointer(cpath))
	k := &Kernels{}
	if err := check(C.hipModuleLoad(&k.module, cpath)); err != nil {
		return nil, fmt.Errorf("load %s: %w", path, err)
	}
	return k, nil
}

// Close unloads the module.
func (k *Kernels) Close() error {
	return check(C.hipModuleUnload(k.module))
}
