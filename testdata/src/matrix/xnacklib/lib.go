// Package xnacklib has the implementations of an interface that the
// XNACK column's cross-package row calls.
package xnacklib

// #cgo CFLAGS: -I${SRCDIR}/../../../include
// #include <hip/hip_runtime_api.h>
// #include <stdlib.h>
import "C"

import "unsafe"

var kernel C.hipFunction_t

// Runner launches on a buffer of n bytes.
type Runner interface{ Run(n int) error }

// HostKernel launches on system memory.
type HostKernel struct{}

// Run launches on C.malloc memory.
func (HostKernel) Run(n int) error { // want Run:"needsXNACK\\(system\\) initializesHIP"
	p := C.malloc(C.size_t(n))
	args := []unsafe.Pointer{unsafe.Pointer(&p)}
	C.hipModuleLaunchKernel(kernel, 1, 1, 1, 64, 1, 1, 0, nil, &args[0], nil)
	return nil
}

// DeviceKernel launches on device memory.
type DeviceKernel struct{}

// Run launches on hipMalloc memory.
func (DeviceKernel) Run(n int) error { // want Run:"initializesHIP"
	var p unsafe.Pointer
	C.hipMalloc(&p, C.size_t(n))
	args := []unsafe.Pointer{unsafe.Pointer(&p)}
	C.hipModuleLaunchKernel(kernel, 1, 1, 1, 64, 1, 1, 0, nil, &args[0], nil)
	return nil
}
