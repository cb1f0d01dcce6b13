// Package copysync is the copy-sync column (HL1001/HL1002) of the construct ×
// check matrix (docs/coverage.md): for every Go construct a device-to-device
// copy whose destination is read before the copy is ordered, and its safe
// twin, in the styles of a tensor library (wrapper types, pools, streams and
// events behind methods, error returns).
package copysync

// #cgo CFLAGS: -I${SRCDIR}/../../../include
// #include <hip/hip_runtime_api.h>
import "C"

import (
	"fmt"
	"unsafe"
)

const size = 1 << 20

func check(r C.hipError_t) error {
	if r != C.hipSuccess {
		return fmt.Errorf("hip error %d", int(r))
	}
	return nil
}

// Tensor is managed device memory the host may view.
type Tensor struct {
	ptr unsafe.Pointer
	n   int
}

// NewTensor allocates n float32 values.
func NewTensor(n int) (*Tensor, error) {
	t := &Tensor{n: n}
	if err := check(C.hipMallocManaged(&t.ptr, C.size_t(4*n), C.hipMemAttachGlobal)); err != nil {
		return nil, err
	}
	return t, nil
}

// CopyFrom copies src into t on the device. It returns before the data lands.
func (t *Tensor) CopyFrom(src *Tensor) error { // want CopyFrom:`copiesInto\(hipMemcpy dst=r\.ptr\)`
	return check(C.hipMemcpy(t.ptr, src.ptr, C.size_t(4*t.n), C.hipMemcpyDeviceToDevice))
}

// Values views t on the host.
func (t *Tensor) Values() []float32 {
	return unsafe.Slice((*float32)(t.ptr), t.n)
}

// Release frees t.
func (t *Tensor) Release() error {
	return check(C.hipFree(t.ptr))
}

// copyTensor copies src into dst on the device.
func copyTensor(dst, src *Tensor) error { // want copyTensor:`copiesInto\(hipMemcpy dst=p0\.ptr\)`
	return check(C.hipMemcpy(dst.ptr, src.ptr, C.size_t(4*dst.n), C.hipMemcpyDeviceToDevice))
}

// Synchronize waits for the current device.
func Synchronize() error { // want Synchronize:`synchronizes\(device\)`
	return check(C.hipDeviceSynchronize())
}

// Stream is a non-blocking stream.
type Stream struct {
	s C.hipStream_t // want s:"nonBlockingStream"
}

// NewStream creates a non-blocking stream.
func NewStream() (*Stream, error) {
	st := &Stream{}
	if err := check(C.hipStreamCreateWithFlags(&st.s, C.hipStreamNonBlocking)); err != nil {
		return nil, err
	}
	return st, nil
}

// CopyAsync queues a device-to-device copy of src into dst on st.
func (st *Stream) CopyAsync(dst, src *Tensor) error { // want CopyAsync:`copiesInto\(hipMemcpyAsync dst=p0\.ptr stream=r\.s\)`
	return check(C.hipMemcpyAsync(dst.ptr, src.ptr, C.size_t(4*dst.n), C.hipMemcpyDeviceToDevice, st.s))
}

// Synchronize waits for the work queued on st.
func (st *Stream) Synchronize() error { // want Synchronize:`synchronizes\(r\.s\)`
	return check(C.hipStreamSynchronize(st.s))
}

// Event is a recorded point of a stream.
type Event struct {
	ev C.hipEvent_t
}

// NewEvent creates an event.
func NewEvent() (*Event, error) {
	e := &Event{}
	return e, check(C.hipEventCreate(&e.ev))
}

// Record records e on st.
func (e *Event) Record(st *Stream) error { // want Record:`eventOps\(record r\.ev on p0\.s\)`
	return check(C.hipEventRecord(e.ev, st.s))
}

// Wait blocks the host until e completes.
func (e *Event) Wait() error { // want Wait:`eventOps\(sync r\.ev\)`
	return check(C.hipEventSynchronize(e.ev))
}

func first(v []float32) float32 { return v[0] }
