// Package lookedup returns kernels' function handles from helpers (issues
// #31, #32), the shapes of runtimecheck/testdata/gpu/modunload, which hiplint
// confirm found on a GPU: a function handle dies with its module, so a
// helper that unloads the module before it returns the handle hands out a
// dead handle (its launch fails with hipErrorInvalidHandle), and a handle
// returned with its module is tied to it in the caller.
package lookedup

// #cgo CFLAGS: -I${SRCDIR}/../../../include
// #include <hip/hip_runtime_api.h>
// #include <stdlib.h>
import "C"

import (
	"fmt"
	"unsafe"
)

func status(op string, r C.hipError_t) error {
	if r != C.hipSuccess {
		return fmt.Errorf("%s: error %d", op, int(r))
	}
	return nil
}

// load returns the module and its kernel nop.
func load(image string) (C.hipModule_t, C.hipFunction_t, error) { // want load:"returnsModule\\(result=0, status=2\\)" load:"returnsFunction\\(result=1, module=0\\)"
	img := C.CString(image)
	defer C.free(unsafe.Pointer(img))
	name := C.CString("nop")
	defer C.free(unsafe.Pointer(name))
	var m C.hipModule_t
	if err := status("hipModuleLoadData", C.hipModuleLoadData(&m, unsafe.Pointer(img))); err != nil {
		return m, nil, err
	}
	var f C.hipFunction_t
	if err := status("hipModuleGetFunction", C.hipModuleGetFunction(&f, m, name)); err != nil {
		C.hipModuleUnload(m)
		return m, nil, err
	}
	return m, f, nil
}

// UnloadThenLaunch takes the kernel from load and unloads its module
// before it launches it, in one function: load ties f to m.
func UnloadThenLaunch(image string) error {
	m, f, err := load(image)
	if err != nil {
		return err
	}
	C.hipModuleUnload(m)
	return status("launch", C.hipModuleLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, nil, nil, nil)) // want `hipModuleLaunchKernel launches f, whose module m was unloaded`
}

// LaunchThenUnload is its twin: the launch comes first.
func LaunchThenUnload(image string) error {
	m, f, err := load(image)
	if err != nil {
		return err
	}
	err = status("launch", C.hipModuleLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, nil, nil, nil))
	C.hipModuleUnload(m)
	return err
}

// LaunchDeferredUnload is its twin with a deferred unload.
func LaunchDeferredUnload(image string) error {
	m, f, err := load(image)
	if err != nil {
		return err
	}
	defer C.hipModuleUnload(m)
	return status("launch", C.hipModuleLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, nil, nil, nil))
}

// Lookup returns the kernel, but its deferred closure unloads the module
// when Lookup returns.
func Lookup(image string) (C.hipFunction_t, error) { // want Lookup:"returnsFunction\\(result=0, unloaded\\)"
	m, f, err := load(image)
	if err != nil {
		return nil, err
	}
	defer func() {
		C.hipModuleUnload(m)
	}()
	return f, nil
}

// LaunchLookedUp launches what Lookup returned: its module is gone.
func LaunchLookedUp(image string) error {
	f, err := Lookup(image)
	if err != nil {
		return err
	}
	return status("launch", C.hipModuleLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, nil, nil, nil)) // want `hipModuleLaunchKernel launches f, whose module Lookup unloaded before returning it`
}

// Fetch unloads the module on the spot before it returns the kernel.
func Fetch(image string) C.hipFunction_t { // want Fetch:"returnsFunction\\(result=0, unloaded\\)"
	m, f, err := load(image)
	if err != nil {
		return nil
	}
	C.hipModuleUnload(m)
	return f
}

// Wrapped returns what Lookup returns: a wrapper carries the fact on.
func Wrapped(image string) (C.hipFunction_t, error) { // want Wrapped:"returnsFunction\\(result=0, unloaded\\)"
	return Lookup(image)
}

// Rewrapped keeps the handle in a variable first.
func Rewrapped(image string) (C.hipFunction_t, error) { // want Rewrapped:"returnsFunction\\(result=0, unloaded\\)"
	f, err := Wrapped(image)
	if err != nil {
		return nil, err
	}
	return f, nil
}

// LaunchRewrapped launches a dead handle two wrappers away.
func LaunchRewrapped(image string) error {
	f, err := Rewrapped(image)
	if err != nil {
		return err
	}
	return status("launch", C.hipModuleLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, nil, nil, nil)) // want `hipModuleLaunchKernel launches f, whose module Rewrapped unloaded before returning it`
}

// LaunchFetched launches what Fetch returned.
func LaunchFetched(image string) error {
	f := Fetch(image)
	if f == nil {
		return fmt.Errorf("no kernel")
	}
	return status("launch", C.hipModuleLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, nil, nil, nil)) // want `hipModuleLaunchKernel launches f, whose module Fetch unloaded`
}

// Borrow returns the kernel and a release function that unloads its module.
func Borrow(image string) (C.hipFunction_t, func(), error) {
	m, f, err := load(image)
	if err != nil {
		return nil, nil, err
	}
	return f, func() { C.hipModuleUnload(m) }, nil
}

// LaunchBorrowed launches before the deferred release unloads the module.
func LaunchBorrowed(image string) error {
	f, release, err := Borrow(image)
	if err != nil {
		return err
	}
	defer release()
	return status("launch", C.hipModuleLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, nil, nil, nil))
}

// Kernel returns the kernel with its module, for the caller to unload.
func Kernel(image string) (C.hipModule_t, C.hipFunction_t, error) { // want Kernel:"returnsModule\\(result=0, status=2\\)" Kernel:"returnsFunction\\(result=1, module=0\\)"
	m, f, err := load(image)
	if err != nil {
		return m, nil, err
	}
	return m, f, nil
}

// MaybeUnloaded unloads the module on one path only: not every return
// hands out a dead handle, so it says nothing.
func MaybeUnloaded(image string, keep bool) (C.hipFunction_t, error) {
	m, f, err := load(image)
	if err != nil {
		return nil, err
	}
	if keep {
		kept = m
	} else {
		C.hipModuleUnload(m)
	}
	return f, nil
}

var kept C.hipModule_t

// Refetched takes the kernel again from a module it keeps: f is written
// twice, so the first handle's fate does not follow it.
func Refetched(image string, other C.hipModule_t) error { // want Refetched:"borrows\\[1\\] uses\\[1\\]"
	f, err := Lookup(image)
	if err != nil {
		return err
	}
	name := C.CString("nop")
	defer C.free(unsafe.Pointer(name))
	if err := status("hipModuleGetFunction", C.hipModuleGetFunction(&f, other, name)); err != nil {
		return err
	}
	return status("launch", C.hipModuleLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, nil, nil, nil))
}

var cache []C.hipModule_t

// Cached keeps the module in a cache; its deferred closure unloads it only
// when the handle is not handed out: the handle it returns is alive.
func Cached(image string) (C.hipFunction_t, error) {
	m, f, err := load(image)
	if err != nil {
		return nil, err
	}
	kept := false
	defer func() {
		if !kept {
			C.hipModuleUnload(m)
		}
	}()
	cache = append(cache, m)
	kept = true
	return f, nil
}

// LaunchCached launches what Cached returned: its module is in the cache.
func LaunchCached(image string) error {
	f, err := Cached(image)
	if err != nil {
		return err
	}
	return status("launch", C.hipModuleLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, nil, nil, nil))
}

// Checked unloads the module in a deferred closure that checks the
// unload's status: the unload runs whatever the status.
func Checked(image string) (C.hipFunction_t, error) { // want Checked:"returnsFunction\\(result=0, unloaded\\)"
	m, f, err := load(image)
	if err != nil {
		return nil, err
	}
	defer func() {
		if err := status("hipModuleUnload", C.hipModuleUnload(m)); err != nil {
			println(err.Error())
		}
	}()
	return f, nil
}

// LaunchChecked launches what Checked returned: its module is gone.
func LaunchChecked(image string) error {
	f, err := Checked(image)
	if err != nil {
		return err
	}
	return status("launch", C.hipModuleLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, nil, nil, nil)) // want `hipModuleLaunchKernel launches f, whose module Checked unloaded before returning it`
}
