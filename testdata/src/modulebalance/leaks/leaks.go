// Package leaks holds module-balance hazards, written the way real code is.
package leaks

// #cgo CFLAGS: -I${SRCDIR}/../../../include
// #include <hip/hip_runtime_api.h>
// #include <stdlib.h>
import "C"

import (
	"errors"
	"fmt"
	"unsafe"
)

func check(r C.hipError_t) error {
	if r != C.hipSuccess {
		return fmt.Errorf("hip error %d", int(r))
	}
	return nil
}

type status C.hipError_t

func (s status) error(what string) error {
	if s != C.hipSuccess {
		return fmt.Errorf("%s: hip error %d", what, int(s))
	}
	return nil
}

// Error return after the load: the module leaks when GetFunction fails.
func leakOnErrorReturn(path, name string) (C.hipFunction_t, error) { // want leakOnErrorReturn:"returnsFunction\\(result=0, unloaded\\)"
	cpath := C.CString(path)
	defer C.free(unsafe.Pointer(cpath))
	var m C.hipModule_t
	if err := check(C.hipModuleLoad(&m, cpath)); err != nil { // want `module m loaded by hipModuleLoad is not unloaded on this return`
		return nil, err
	}
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))
	var f C.hipFunction_t
	if err := check(C.hipModuleGetFunction(&f, m, cname)); err != nil {
		return nil, err
	}
	C.hipModuleUnload(m)
	return f, nil
}

// Status compared directly, status variable checked later.
func leakStatusVariable(image unsafe.Pointer) error {
	var m C.hipModule_t
	r := C.hipModuleLoadData(&m, image) // want `module m loaded by hipModuleLoadData is not unloaded on this return`
	if r != C.hipSuccess {
		return errors.New("load failed")
	}
	if err := doWork(); err != nil {
		return err
	}
	return check(C.hipModuleUnload(m))
}

func doWork() error { return nil }

// A loop that loads every iteration and unloads once after it.
func reloadEveryIteration(images []unsafe.Pointer) error {
	var m C.hipModule_t
	for _, img := range images {
		if err := status(C.hipModuleLoadData(&m, img)).error("load"); err != nil { // want `module m loaded by hipModuleLoadData on every iteration is never unloaded before the next load`
			return err
		}
	}
	C.hipModuleUnload(m)
	return nil
}

// A handle declared in the loop body is dropped at the end of each iteration.
func loopDropsHandle(images []unsafe.Pointer) {
	for _, img := range images {
		var m C.hipModule_t
		C.hipModuleLoadData(&m, img) // want `module m loaded by hipModuleLoadData (is still loaded when its handle is overwritten|is not unloaded at the end)`
	}
}

// The handle is overwritten while the first module is loaded.
func overwritten(a, b *C.char) {
	var m C.hipModule_t
	C.hipModuleLoad(&m, a) // want `module m loaded by hipModuleLoad is still loaded when its handle is loaded again`
	C.hipModuleLoad(&m, b)
	C.hipModuleUnload(m)
}

// Only the function handle escapes: the module dies unreferenced and leaks.
func onlyFunctionEscapes(path *C.char, name *C.char) C.hipFunction_t {
	var m C.hipModule_t
	C.hipModuleLoad(&m, path) // want `only a function handle from it escapes`
	var f C.hipFunction_t
	C.hipModuleGetFunction(&f, m, name)
	return f
}

// Unchecked load, never unloaded.
func neverUnloaded(path *C.char) {
	var m C.hipModule_t
	C.hipModuleLoad(&m, path) // want `not unloaded at the end of the function`
}

// Leaks on the early return only.
func leaksOnOneBranch(path *C.char, fast bool) error {
	var m C.hipModule_t
	if C.hipModuleLoad(&m, path) != C.hipSuccess { // want `not unloaded on this return`
		return errors.New("load")
	}
	if fast {
		return nil
	}
	C.hipModuleUnload(m)
	return nil
}

func doubleUnload(path *C.char) {
	var m C.hipModule_t
	if C.hipModuleLoad(&m, path) != C.hipSuccess {
		return
	}
	C.hipModuleUnload(m)
	C.hipModuleUnload(m) // want `module m is unloaded twice`
}

func deferredAndExplicit(path *C.char) {
	var m C.hipModule_t
	if C.hipModuleLoad(&m, path) != C.hipSuccess {
		return
	}
	defer C.hipModuleUnload(m)
	C.hipModuleUnload(m) // want `unloaded here and again by a deferred unload`
}

func getAfterUnload(path, name *C.char) {
	var m C.hipModule_t
	if C.hipModuleLoad(&m, path) != C.hipSuccess {
		return
	}
	C.hipModuleUnload(m)
	var f C.hipFunction_t
	C.hipModuleGetFunction(&f, m, name) // want `hipModuleGetFunction uses module m after it was unloaded`
}

func launchAfterUnload(path, name *C.char, args unsafe.Pointer) error {
	var m C.hipModule_t
	if err := check(C.hipModuleLoad(&m, path)); err != nil {
		return err
	}
	var f C.hipFunction_t
	if err := check(C.hipModuleGetFunction(&f, m, name)); err != nil {
		C.hipModuleUnload(m)
		return err
	}
	C.hipModuleUnload(m)
	return check(C.hipModuleLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, nil, (*unsafe.Pointer)(args), nil)) // want `hipModuleLaunchKernel launches f, whose module m was unloaded`
}

func deferBeforeCheck(path *C.char) error {
	var m C.hipModule_t
	r := C.hipModuleLoad(&m, path)
	defer C.hipModuleUnload(m) // want `unload of module m is deferred before the load is checked`
	if r != C.hipSuccess {
		return errors.New("load")
	}
	return nil
}

func unloadFailedLoad(path *C.char) error {
	var m C.hipModule_t
	if err := check(C.hipModuleLoad(&m, path)); err != nil {
		C.hipModuleUnload(m) // want `unloaded although its load failed`
		return err
	}
	C.hipModuleUnload(m)
	return nil
}
