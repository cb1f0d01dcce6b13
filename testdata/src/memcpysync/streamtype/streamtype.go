// Package streamtype is a binding in the style of gorgonia/cu: the stream is
// a Go struct around the driver handle, the copies are package functions
// taking it by value and reaching the handle through a method. A read on the
// same Stream value as the copy into it is ordered; one on another
// non-blocking stream is not.
package streamtype

// #cgo CFLAGS: -I${SRCDIR}/../../../include
// #include <cuda.h>
import "C"

import (
	"errors"
	"unsafe"
)

// DevPtr is a device address.
type DevPtr uintptr

// Stream wraps a driver stream handle.
type Stream struct{ h C.CUstream }

func (s Stream) handle() C.CUstream { return s.h }

func res(r C.CUresult) error {
	if r != C.CUDA_SUCCESS {
		return errors.New("cuda error")
	}
	return nil
}

// NewStream creates a stream with the given flags.
func NewStream(flags uint) (Stream, error) {
	var s Stream
	err := res(C.cuStreamCreate(&s.h, C.uint(flags)))
	return s, err
}

// Alloc allocates n bytes of device memory.
func Alloc(n int64) (DevPtr, error) {
	var p C.CUdeviceptr
	err := res(C.cuMemAlloc(&p, C.size_t(n)))
	return DevPtr(p), err
}

// CopyDtoD copies n bytes from src to dst on s.
func CopyDtoD(dst, src DevPtr, n int64, s Stream) error { // want CopyDtoD:"copiesInto\\(cuMemcpyDtoDAsync dst=p0 stream=p3.h\\)"
	h := s.handle()
	return res(C.cuMemcpyDtoDAsync(C.CUdeviceptr(dst), C.CUdeviceptr(src), C.size_t(n), h))
}

// CopyDtoH copies n bytes from the device src to the host dst on s.
func CopyDtoH(dst unsafe.Pointer, src DevPtr, n int64, s Stream) error { // want CopyDtoH:"deviceReads\\(p1 on p3.h\\)"
	h := s.handle()
	return res(C.cuMemcpyDtoHAsync(dst, C.CUdeviceptr(src), C.size_t(n), h))
}

// SameStream reads the copy's destination on the stream the copy ran on.
func SameStream(out []float32) error {
	n := int64(4 * len(out))
	a, _ := Alloc(n)
	b, _ := Alloc(n)
	s, _ := NewStream(C.CU_STREAM_NON_BLOCKING)
	if err := CopyDtoD(b, a, n, s); err != nil {
		return err
	}
	return CopyDtoH(unsafe.Pointer(&out[0]), b, n, s)
}

// OtherStream reads it on a second non-blocking stream, unordered.
func OtherStream(out []float32) error {
	n := int64(4 * len(out))
	a, _ := Alloc(n)
	b, _ := Alloc(n)
	s1, _ := NewStream(C.CU_STREAM_NON_BLOCKING)
	s2, _ := NewStream(C.CU_STREAM_NON_BLOCKING)
	if err := CopyDtoD(b, a, n, s1); err != nil {
		return err
	}
	return CopyDtoH(unsafe.Pointer(&out[0]), b, n, s2) // want `reads b on a different stream than the copy's`
}
