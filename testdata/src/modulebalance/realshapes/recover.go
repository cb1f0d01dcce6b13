package realshapes

// #include <cuda.h>
import "C"

import (
	"fmt"
	"unsafe"
)

// must panics when a driver call fails.
func must(r C.CUresult) {
	if r != C.CUDA_SUCCESS {
		panic(fmt.Sprintf("cuda error %d", int(r)))
	}
}

// Hazard: must panics, the deferred recover turns the panic into an error
// return, and the unload after it never runs.
func recoveredPanicLeak(img unsafe.Pointer, name *C.char) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%v", r)
		}
	}()
	var m C.CUmodule
	must(C.cuModuleLoadData(&m, img)) // want `module m loaded by cuModuleLoadData is not unloaded when must panics and the deferred recover returns`
	var f C.CUfunction
	must(C.cuModuleGetFunction(&f, m, name))
	must(C.cuModuleUnload(m))
	return nil
}

// Safe twin: the unload is deferred, so it runs before the recover returns.
func recoveredPanicDeferred(img unsafe.Pointer, name *C.char) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%v", r)
		}
	}()
	var m C.CUmodule
	must(C.cuModuleLoadData(&m, img))
	defer C.cuModuleUnload(m)
	var f C.CUfunction
	must(C.cuModuleGetFunction(&f, m, name))
	return nil
}

// Safe: without a recover the panic ends the program.
func panicNotRecovered(img unsafe.Pointer, name *C.char) {
	var m C.CUmodule
	must(C.cuModuleLoadData(&m, img))
	var f C.CUfunction
	must(C.cuModuleGetFunction(&f, m, name))
	must(C.cuModuleUnload(m))
}

// Hazard: the callback fails and With returns without unloading.
func With(img unsafe.Pointer, fn func(C.CUmodule) error) error {
	var m C.CUmodule
	if err := check(C.cuModuleLoadData(&m, img)); err != nil { // want `module m loaded by cuModuleLoadData is not unloaded on this return`
		return err
	}
	if err := fn(m); err != nil {
		return err
	}
	return check(C.cuModuleUnload(m))
}

// Safe twin: the unload is deferred.
func WithDeferred(img unsafe.Pointer, fn func(C.CUmodule) error) error { // want WithDeferred:"lends\\[1:0\\]"
	var m C.CUmodule
	if err := check(C.cuModuleLoadData(&m, img)); err != nil {
		return err
	}
	defer C.cuModuleUnload(m)
	return fn(m)
}

// Safe: the only panic left is the unload's own check, after the unload ran.
func recoveredUnloadCheck(img unsafe.Pointer) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%v", r)
		}
	}()
	var m C.CUmodule
	if err := check(C.cuModuleLoadData(&m, img)); err != nil {
		return err
	}
	must(C.cuModuleUnload(m))
	return nil
}

// Safe: a hook that takes the module over (it never comes back to be
// unloaded here).
func LoadWithHook(img unsafe.Pointer, keep func(C.CUmodule)) error {
	var m C.CUmodule
	if err := check(C.cuModuleLoadData(&m, img)); err != nil {
		return err
	}
	keep(m)
	return nil
}

// Safe: the deferred closure recovers only to panic again; the program ends.
func recoverAndRepanic(img unsafe.Pointer, name *C.char) {
	defer func() {
		if r := recover(); r != nil {
			panic(fmt.Sprintf("wrapped: %v", r))
		}
	}()
	var m C.CUmodule
	must(C.cuModuleLoadData(&m, img))
	var f C.CUfunction
	must(C.cuModuleGetFunction(&f, m, name))
	must(C.cuModuleUnload(m))
}
