// Package lookeduse launches the handles of package lookedup: a dead
// handle is found through lookedup's facts.
package lookeduse

// #cgo CFLAGS: -I${SRCDIR}/../../../include
// #include <hip/hip_runtime_api.h>
import "C"

import (
	"errors"
	"unsafe"

	"modulebalance/lookedup"
)

// LaunchWrapped launches the handle lookedup.Wrapped returns: its module
// is gone.
func LaunchWrapped(image string) error {
	f, err := lookedup.Wrapped(image)
	if err != nil {
		return err
	}
	if C.hipModuleLaunchKernel(C.hipFunction_t(unsafe.Pointer(f)), 1, 1, 1, 1, 1, 1, 0, nil, nil, nil) != C.hipSuccess { // want `hipModuleLaunchKernel launches f, whose module Wrapped unloaded before returning it`
		return errors.New("launch failed")
	}
	return nil
}

// LaunchKernel unloads the module lookedup.Kernel returned before it
// launches its kernel.
func LaunchKernel(image string) error {
	m, f, err := lookedup.Kernel(image)
	if err != nil {
		return err
	}
	C.hipModuleUnload(C.hipModule_t(unsafe.Pointer(m)))
	if C.hipModuleLaunchKernel(C.hipFunction_t(unsafe.Pointer(f)), 1, 1, 1, 1, 1, 1, 0, nil, nil, nil) != C.hipSuccess { // want `hipModuleLaunchKernel launches f, whose module m was unloaded`
		return errors.New("launch failed")
	}
	return nil
}

// LaunchKernelFirst is its twin: it launches, then unloads.
func LaunchKernelFirst(image string) error {
	m, f, err := lookedup.Kernel(image)
	if err != nil {
		return err
	}
	defer C.hipModuleUnload(C.hipModule_t(unsafe.Pointer(m)))
	if C.hipModuleLaunchKernel(C.hipFunction_t(unsafe.Pointer(f)), 1, 1, 1, 1, 1, 1, 0, nil, nil, nil) != C.hipSuccess {
		return errors.New("launch failed")
	}
	return nil
}

// LaunchBorrowed launches before the deferred release.
func LaunchBorrowed(image string) error {
	f, release, err := lookedup.Borrow(image)
	if err != nil {
		return err
	}
	defer release()
	if C.hipModuleLaunchKernel(C.hipFunction_t(unsafe.Pointer(f)), 1, 1, 1, 1, 1, 1, 0, nil, nil, nil) != C.hipSuccess {
		return errors.New("launch failed")
	}
	return nil
}
