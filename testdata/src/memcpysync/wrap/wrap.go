// Package wrap is a thin Go wrapper over HIP copies, the way Go GPU libraries
// are written; its summaries reach other packages as facts.
package wrap

// #cgo CFLAGS: -I${SRCDIR}/../../../include
// #include <hip/hip_runtime_api.h>
import "C"

import (
	"errors"
	"unsafe"
)

// Copy kinds for callers without cgo.
const (
	HostToDevice   = C.hipMemcpyHostToDevice
	DeviceToDevice = C.hipMemcpyDeviceToDevice
)

func check(r C.hipError_t) error {
	if r != C.hipSuccess {
		return errors.New("hip error")
	}
	return nil
}

// Copy copies size bytes; the caller's kind decides whether it is a
// device-to-device copy.
func Copy(dst, src unsafe.Pointer, size int, kind C.hipMemcpyKind) error { // want Copy:`copiesInto\(hipMemcpy dst=p0 kind=p3\)`
	return check(C.hipMemcpy(dst, src, C.size_t(size), kind))
}

// CopyD2D copies device memory.
func CopyD2D(dst, src unsafe.Pointer, size int) error { // want CopyD2D:`copiesInto\(hipMemcpy dst=p0\)`
	return Copy(dst, src, size, C.hipMemcpyDeviceToDevice)
}

// CopyAndWait copies and waits: nothing is left in flight.
func CopyAndWait(dst, src unsafe.Pointer, size int) error { // want CopyAndWait:`synchronizes\(device\)`
	C.hipMemcpyDtoD(C.hipDeviceptr_t(dst), C.hipDeviceptr_t(src), C.size_t(size))
	return Sync()
}

// Sync waits for the current device.
func Sync() error { // want Sync:`synchronizes\(device\)`
	return check(C.hipDeviceSynchronize())
}

// Checksum reads device-visible memory on the host.
func Checksum(p unsafe.Pointer, count int) (sum float32) { // want Checksum:`readsParams\[0\]`
	for _, v := range unsafe.Slice((*float32)(p), count) {
		sum += v
	}
	return sum
}

// Buffer is device memory.
type Buffer struct {
	Ptr  unsafe.Pointer
	Size int
}

// CopyFrom copies src into b on the null stream.
func (b *Buffer) CopyFrom(src *Buffer) { // want CopyFrom:`copiesInto\(hipMemcpy dst=r.Ptr\)`
	C.hipMemcpy(b.Ptr, src.Ptr, C.size_t(b.Size), C.hipMemcpyDeviceToDevice)
}

// Stream is a non-blocking stream.
type Stream struct {
	s C.hipStream_t // want s:"nonBlockingStream"
}

// NewStream creates a non-blocking stream.
func NewStream() *Stream {
	st := &Stream{}
	C.hipStreamCreateWithFlags(&st.s, C.hipStreamNonBlocking)
	return st
}

// CopyAsync copies device memory on the stream.
func (st *Stream) CopyAsync(dst, src unsafe.Pointer, size int) { // want CopyAsync:`copiesInto\(hipMemcpyAsync dst=p0 stream=r.s\)`
	C.hipMemcpyAsync(dst, src, C.size_t(size), C.hipMemcpyDeviceToDevice, st.s)
}

// Synchronize waits for the stream.
func (st *Stream) Synchronize() { // want Synchronize:`synchronizes\(r.s\)`
	C.hipStreamSynchronize(st.s)
}
