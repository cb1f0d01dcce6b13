// Package unloadorder launches kernels from code objects it loads on demand.
//
// It is one of hiplint's example programs: LaunchFrom defers the unload
// before checking that the load succeeded (HL2004), and LaunchEarlyRelease
// launches a kernel after releasing its module (HL2003). LaunchFromChecked
// and LaunchThenRelease are the safe twins.
package unloadorder

/*
#cgo CFLAGS: -I${SRCDIR}/../../testdata/include
#include <stdlib.h>
#include <hip/hip_runtime_api.h>
*/
import "C"

import (
	"errors"
	"fmt"
	"unsafe"
)

// ErrNoKernel is returned when the code object lacks the kernel.
var ErrNoKernel = errors.New("kernel not found")

// check turns a HIP status into a Go error.
func check(r C.hipError_t) error {
	switch r {
	case C.hipSuccess:
		return nil
	case C.hipErrorNotFound:
		return ErrNoKernel
	}
	return fmt.Errorf("hip: %s", C.GoString(C.hipGetErrorString(r)))
}

// Grid is a launch configuration.
type Grid struct {
	Blocks, Threads uint32
}

func (g Grid) launch(f C.hipFunction_t, stream C.hipStream_t) error {
	return check(C.hipModuleLaunchKernel(f,
		C.uint(g.Blocks), 1, 1,
		C.uint(g.Threads), 1, 1,
		0, stream, nil, nil))
}

// LaunchFrom loads the code object at path and launches kernel name. The
// unload is deferred before the load is checked: when the load fails, the
// deferred call unloads a handle that was never loaded.
func LaunchFrom(path, name string, g Grid) error {
	cpath := C.CString(path)
	defer C.free(unsafe.Pointer(cpath))
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))

	var m C.hipModule_t
	err := check(C.hipModuleLoad(&m, cpath))
	defer C.hipModuleUnload(m) // hazard: HL2004
	if err != nil {
		return fmt.Errorf("load %s: %w", path, err)
	}
	var f C.hipFunction_t
	if err := check(C.hipModuleGetFunction(&f, m, cname)); err != nil {
		return err
	}
	return g.launch(f, nil)
}

// LaunchFromChecked is LaunchFrom with the defer after the error check.
func LaunchFromChecked(path, name string, g Grid) error {
	cpath := C.CString(path)
	defer C.free(unsafe.Pointer(cpath))
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))

	var m C.hipModule_t
	err := check(C.hipModuleLoad(&m, cpath))
	if err != nil {
		return fmt.Errorf("load %s: %w", path, err)
	}
	defer C.hipModuleUnload(m)
	var f C.hipFunction_t
	if err := check(C.hipModuleGetFunction(&f, m, cname)); err != nil {
		return err
	}
	return g.launch(f, nil)
}

// LaunchEarlyRelease releases the module as soon as it has the kernel's
// handle, to keep device memory low, then launches the kernel: the function
// handle died with its module.
func LaunchEarlyRelease(path, name string, g Grid) error {
	cpath := C.CString(path)
	defer C.free(unsafe.Pointer(cpath))
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))

	var m C.hipModule_t
	if err := check(C.hipModuleLoad(&m, cpath)); err != nil {
		return err
	}
	var f C.hipFunction_t
	if err := check(C.hipModuleGetFunction(&f, m, cname)); err != nil {
		C.hipModuleUnload(m)
		return err
	}
	if err := check(C.hipModuleUnload(m)); err != nil {
		return err
	}
	return check(C.hipModuleLaunchKernel(f, C.uint(g.Blocks), 1, 1, C.uint(g.Threads), 1, 1, 0, nil, nil, nil)) // hazard: HL2003
}

// LaunchThenRelease launches first and releases the module after the
// kernel has finished.
func LaunchThenRelease(path, name string, g Grid) error {
	cpath := C.CString(path)
	defer C.free(unsafe.Pointer(cpath))
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))

	var m C.hipModule_t
	if err := check(C.hipModuleLoad(&m, cpath)); err != nil {
		return err
	}
	defer C.hipModuleUnload(m)
	var f C.hipFunction_t
	if err := check(C.hipModuleGetFunction(&f, m, cname)); err != nil {
		return err
	}
	if err := check(C.hipModuleLaunchKernel(f, C.uint(g.Blocks), 1, 1, C.uint(g.Threads), 1, 1, 0, nil, nil, nil)); err != nil {
		return err
	}
	return check(C.hipDeviceSynchronize())
}
