// Package kernels keeps a kernel's function handle next to the module it
// was taken from, the way Go GPU libraries write a Kernel type: the function
// dies with its module, so a launch of k.fn after k.mod is unloaded is a use
// after unload (HL2003), in one function or through methods.
package kernels

// #cgo CFLAGS: -I${SRCDIR}/../../../include
// #include <hip/hip_runtime_api.h>
// #include <stdlib.h>
import "C"

import (
	"errors"
	"unsafe"
)

// Kernel is a function of a module it owns.
type Kernel struct {
	mod C.hipModule_t
	fn  C.hipFunction_t
}

// Load loads the module at path and takes its function name.
func Load(path, name string) (*Kernel, error) { // want Load:"returnsModule\\(result=0, status=1\\)"
	k := &Kernel{}
	cpath := C.CString(path)
	defer C.free(unsafe.Pointer(cpath))
	if C.hipModuleLoad(&k.mod, cpath) != C.hipSuccess {
		return nil, errors.New("load failed")
	}
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))
	if C.hipModuleGetFunction(&k.fn, k.mod, cname) != C.hipSuccess {
		C.hipModuleUnload(k.mod)
		return nil, errors.New("no such function")
	}
	return k, nil
}

// Launch runs the kernel.
func (k *Kernel) Launch(args *unsafe.Pointer) error { // want Launch:"borrows\\[-1\\] uses\\[-1\\]"
	if C.hipModuleLaunchKernel(k.fn, 1, 1, 1, 64, 1, 1, 0, nil, args, nil) != C.hipSuccess {
		return errors.New("launch failed")
	}
	return nil
}

// Close unloads the kernel's module.
func (k *Kernel) Close() { C.hipModuleUnload(k.mod) } // want Close:"unloads\\[-1\\]"

// RunOnce loads, unloads and then launches, in one function.
func RunOnce(path, name string, args *unsafe.Pointer) {
	var k Kernel
	cpath, cname := C.CString(path), C.CString(name)
	defer C.free(unsafe.Pointer(cpath))
	defer C.free(unsafe.Pointer(cname))
	if C.hipModuleLoad(&k.mod, cpath) != C.hipSuccess {
		return
	}
	if C.hipModuleGetFunction(&k.fn, k.mod, cname) != C.hipSuccess {
		C.hipModuleUnload(k.mod)
		return
	}
	C.hipModuleUnload(k.mod)
	C.hipModuleLaunchKernel(k.fn, 1, 1, 1, 64, 1, 1, 0, nil, args, nil) // want `hipModuleLaunchKernel launches k.fn, whose module k.mod was unloaded`
}

// RunOnceThenUnload is its twin: the launch comes first.
func RunOnceThenUnload(path, name string, args *unsafe.Pointer) {
	var k Kernel
	cpath, cname := C.CString(path), C.CString(name)
	defer C.free(unsafe.Pointer(cpath))
	defer C.free(unsafe.Pointer(cname))
	if C.hipModuleLoad(&k.mod, cpath) != C.hipSuccess {
		return
	}
	if C.hipModuleGetFunction(&k.fn, k.mod, cname) != C.hipSuccess {
		C.hipModuleUnload(k.mod)
		return
	}
	C.hipModuleLaunchKernel(k.fn, 1, 1, 1, 64, 1, 1, 0, nil, args, nil)
	C.hipModuleUnload(k.mod)
}

// LaunchAfterClose closes the kernel and then launches it.
func LaunchAfterClose(args *unsafe.Pointer) error {
	k, err := Load("k.co", "axpy")
	if err != nil {
		return err
	}
	k.Close()
	return k.Launch(args) // want `Launch uses module k after it was unloaded`
}

// LaunchThenClose is its twin.
func LaunchThenClose(args *unsafe.Pointer) error {
	k, err := Load("k.co", "axpy")
	if err != nil {
		return err
	}
	defer k.Close()
	return k.Launch(args)
}

// Pair takes its function from one of two modules, depending on the
// function that fills it: which module fn dies with is not known, so no
// launch of it is taken for a use of either.
type Pair struct {
	a, b C.hipModule_t
	fn   C.hipFunction_t
}

func (p *Pair) FromA(name *C.char) { // want FromA:"borrows\\[-1\\] uses\\[-1\\]"
	C.hipModuleGetFunction(&p.fn, p.a, name)
}

func (p *Pair) FromB(name *C.char) { // want FromB:"borrows\\[-1\\] uses\\[-1\\]"
	C.hipModuleGetFunction(&p.fn, p.b, name)
}

// LaunchAfterUnloadingA: fn may be b's.
func (p *Pair) LaunchAfterUnloadingA(args *unsafe.Pointer) { // want LaunchAfterUnloadingA:"unloads\\[-1\\]" LaunchAfterUnloadingA:"launches\\[-1\\]"
	C.hipModuleUnload(p.a)
	C.hipModuleLaunchKernel(p.fn, 1, 1, 1, 64, 1, 1, 0, nil, args, nil)
}
