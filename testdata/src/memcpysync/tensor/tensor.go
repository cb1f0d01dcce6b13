// Package tensor is a small tensor library in the style real Go GPU
// libraries use: tensors in managed memory, Clone that allocates and copies
// on the device, snapshots returned in structs, and no host access of its
// own. Its callers see, through facts, that what Clone and Snapshot return
// may still be landing.
package tensor

// #cgo CFLAGS: -I${SRCDIR}/../../../include
// #include <hip/hip_runtime_api.h>
import "C"

import (
	"fmt"
	"unsafe"
)

func check(op string, r C.hipError_t) error {
	if r != C.hipSuccess {
		return fmt.Errorf("%s: hip error %d", op, int(r))
	}
	return nil
}

// Tensor is a float32 tensor in managed memory.
type Tensor struct {
	ptr   unsafe.Pointer
	shape []int
	n     int
}

// New allocates a tensor of the given shape.
func New(shape ...int) (*Tensor, error) { // want New:`readsParams\[0\]`
	n := 1
	for _, d := range shape {
		n *= d
	}
	t := &Tensor{shape: shape, n: n}
	if err := check("hipMallocManaged", C.hipMallocManaged(&t.ptr, C.size_t(4*n), C.hipMemAttachGlobal)); err != nil {
		return nil, err
	}
	return t, nil
}

// Shape returns the tensor's shape.
func (t *Tensor) Shape() []int { return t.shape }

// Data views the tensor on the host.
func (t *Tensor) Data() []float32 { return unsafe.Slice((*float32)(t.ptr), t.n) }

// Clone returns a copy of t, made on the device: it returns before the
// data lands.
func (t *Tensor) Clone() (*Tensor, error) { // want Clone:`copiesInto\(hipMemcpy dst=res0\.ptr\)`
	c, err := New(t.shape...)
	if err != nil {
		return nil, err
	}
	if err := check("hipMemcpy", C.hipMemcpy(c.ptr, t.ptr, C.size_t(4*t.n), C.hipMemcpyDeviceToDevice)); err != nil {
		return nil, err
	}
	return c, nil
}

// CloneTo returns a copy of t on device dev, made by a peer copy from
// device from: it returns before the data lands.
func (t *Tensor) CloneTo(dev, from int) (*Tensor, error) { // want CloneTo:`copiesInto\(hipMemcpyPeer dst=res0\.ptr peer=p0\)`
	c, err := New(t.shape...)
	if err != nil {
		return nil, err
	}
	err = check("hipMemcpyPeer", C.hipMemcpyPeer(c.ptr, C.int(dev), t.ptr, C.int(from), C.size_t(4*t.n)))
	return c, err
}

// CloneSync returns a copy of t that has landed.
func (t *Tensor) CloneSync() (*Tensor, error) { // want CloneSync:`readsParams\[-1\.shape\]`
	c, err := t.Clone()
	if err != nil {
		return nil, err
	}
	return c, Synchronize()
}

// CopyTo copies t into dst on the device.
func (t *Tensor) CopyTo(dst *Tensor) error { // want CopyTo:`copiesInto\(hipMemcpyDtoD dst=p0\.ptr\)`
	return check("hipMemcpyDtoD", C.hipMemcpyDtoD(C.hipDeviceptr_t(dst.ptr), C.hipDeviceptr_t(t.ptr), C.size_t(4*t.n)))
}

// Free releases t.
func (t *Tensor) Free() error { return check("hipFree", C.hipFree(t.ptr)) }

// Synchronize waits for the current device.
func Synchronize() error { // want Synchronize:`synchronizes\(device\)`
	return check("hipDeviceSynchronize", C.hipDeviceSynchronize())
}

// Model holds the weights being trained.
type Model struct {
	Weights *Tensor
	step    int
}

// Snapshot is a model's weights at one step.
type Snapshot struct {
	Weights *Tensor
	Step    int
}

// Snapshot clones the weights into a new snapshot, on the device.
func (m *Model) Snapshot() (Snapshot, error) { // want Snapshot:`copiesInto\(hipMemcpy dst=res0\.Weights\.ptr\)`
	w, err := m.Weights.Clone()
	if err != nil {
		return Snapshot{}, err
	}
	return Snapshot{Weights: w, Step: m.step}, nil
}

// Checkpoint returns a snapshot that has landed.
func (m *Model) Checkpoint() (*Snapshot, error) { // want Checkpoint:`readsParams\[-1\.Weights\.shape\]`
	s, err := m.Snapshot()
	if err != nil {
		return nil, err
	}
	if err := Synchronize(); err != nil {
		return nil, err
	}
	return &s, nil
}

// Stream is a non-blocking stream.
type Stream struct {
	s C.hipStream_t // want s:"nonBlockingStream"
}

// NewStream creates a non-blocking stream.
func NewStream() (*Stream, error) {
	st := &Stream{}
	return st, check("hipStreamCreateWithFlags", C.hipStreamCreateWithFlags(&st.s, C.hipStreamNonBlocking))
}

// Download queues a copy of t into out on st.
func (st *Stream) Download(out []float32, t *Tensor) error { // want Download:`deviceReads\(p1\.ptr on r\.s\)`
	return check("hipMemcpyAsync", C.hipMemcpyAsync(unsafe.Pointer(&out[0]), t.ptr, C.size_t(4*len(out)), C.hipMemcpyDeviceToHost, st.s))
}

// Upload returns t's data in a new tensor: a copy on the device when t is
// there already (onDevice), an upload from the host otherwise, the way
// ToGPU-style functions branch on where their source lives. No copy is
// pending at every return that hands out a tensor, so the summary names
// none: a caller that uploads host data and reads it is not told that a
// device-to-device copy may still be landing (zerfoo's tensor.ToGPU gave
// sixteen such false positives in its tests before the summary asked for
// every return).
func (t *Tensor) Upload(onDevice bool, host []float32) (*Tensor, error) { // want Upload:`readsParams\[-1\.shape\]`
	c, err := New(t.shape...)
	if err != nil {
		return nil, err
	}
	if onDevice {
		if err := check("hipMemcpy", C.hipMemcpy(c.ptr, t.ptr, C.size_t(4*t.n), C.hipMemcpyDeviceToDevice)); err != nil {
			return nil, err
		}
		return c, nil
	}
	if err := check("hipMemcpy", C.hipMemcpy(c.ptr, unsafe.Pointer(&host[0]), C.size_t(4*len(host)), C.hipMemcpyHostToDevice)); err != nil {
		return nil, err
	}
	return c, nil
}
