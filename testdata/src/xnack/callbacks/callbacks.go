// Package callbacks hands memory to kernels through closures that helpers
// call: the helper's own staging buffer, or what its caller passes it.
// What the closure's parameter holds is what the helper passes it.
package callbacks

// #cgo CFLAGS: -I${SRCDIR}/../../../include
// #include <hip/hip_runtime_api.h>
// #include <stdlib.h>
import "C"

import (
	"errors"
	"runtime"
	"unsafe"
)

var f C.hipFunction_t

var errAlloc = errors.New("hipMalloc failed")

// launch runs the kernel on p.
func launch(p unsafe.Pointer) error {
	var pin runtime.Pinner
	defer pin.Unpin()
	pin.Pin(&p)
	args := []unsafe.Pointer{unsafe.Pointer(&p)}
	if C.hipModuleLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, nil, &args[0], nil) != C.hipSuccess {
		return errors.New("launch failed")
	}
	return nil
}

// withStaging hands its callback a staging buffer from C.malloc.
func withStaging(n int, fn func(unsafe.Pointer) error) error {
	p := C.malloc(C.size_t(n))
	defer C.free(p)
	return fn(p)
}

// withDevice hands its callback device memory.
func withDevice(n int, fn func(unsafe.Pointer) error) error {
	var p unsafe.Pointer
	if C.hipMalloc(&p, C.size_t(n)) != C.hipSuccess {
		return errAlloc
	}
	defer C.hipFree(p)
	return fn(p)
}

// Upload launches on the staging buffer: system memory.
func Upload(n int) error { // want Upload:"needsXNACK\\(system\\) initializesHIP"
	return withStaging(n, func(p unsafe.Pointer) error { return launch(p) })
}

// UploadDevice launches on device memory.
func UploadDevice(n int) error { // want UploadDevice:"initializesHIP"
	return withDevice(n, func(p unsafe.Pointer) error { return launch(p) })
}

// Stream runs fn on buf and then synchronizes: the closure gets the
// caller's buffer.
type Stream struct{ s C.hipStream_t }

// Run calls fn with buf.
func (s *Stream) Run(buf unsafe.Pointer, fn func(unsafe.Pointer) error) error { // want Run:"initializesHIP"
	if err := fn(buf); err != nil {
		return err
	}
	C.hipStreamSynchronize(s.s)
	return nil
}

// FillHost launches on Go memory through the stream's runner.
func FillHost(s *Stream) error { // want FillHost:"needsXNACK\\(system\\) initializesHIP"
	data := make([]float32, 16)
	return s.Run(unsafe.Pointer(&data[0]), func(p unsafe.Pointer) error { return launch(p) })
}

// FillDevice launches on device memory through the stream's runner.
func FillDevice(s *Stream) error { // want FillDevice:"initializesHIP"
	var d unsafe.Pointer
	if C.hipMalloc(&d, 64) != C.hipSuccess {
		return errAlloc
	}
	defer C.hipFree(d)
	return s.Run(d, func(p unsafe.Pointer) error { return launch(p) })
}
