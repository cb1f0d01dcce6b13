// Package copyforms reads the destination of a device-to-device copy, not
// ordered after it, with the copy reached through the call forms of the
// construct matrix (docs/coverage.md): a method value, a method expression,
// a method promoted through an embedded field, an interface, a function in a
// struct field, a functional option, a generic function, a stored closure,
// and a select branch. Each hazard reads on its own non-blocking stream,
// which does not wait for the copy (HL1001); each twin synchronizes the
// device first.
package copyforms

/*
#include <hip/hip_runtime_api.h>
*/
import "C"

import (
	"fmt"
	"unsafe"
)

// Size is large enough that the copy takes a while (about 1 ms on an H200).
const Size = 1 << 30

// Tensor is Size bytes of device memory.
type Tensor struct {
	ptr unsafe.Pointer
}

func check(op string, r C.hipError_t) error {
	if r != C.hipSuccess {
		return fmt.Errorf("%s: error %d", op, int(r))
	}
	return nil
}

// newTensor allocates a tensor filled with b.
func newTensor(b int) *Tensor {
	t := &Tensor{}
	C.hipMalloc(&t.ptr, Size)
	C.hipMemset(t.ptr, C.int(b), Size)
	return t
}

// pair allocates a destination of zeros and a source of ones.
func pair() (dst, src *Tensor) {
	C.hipSetDevice(0)
	dst, src = newTensor(0), newTensor(1)
	C.hipDeviceSynchronize()
	return dst, src
}

func release(ts ...*Tensor) {
	C.hipDeviceSynchronize()
	for _, t := range ts {
		C.hipFree(t.ptr)
	}
}

// CopyFrom copies src into t on the device.
func (t *Tensor) CopyFrom(src *Tensor) error {
	return check("hipMemcpy", C.hipMemcpy(t.ptr, src.ptr, Size, C.hipMemcpyDeviceToDevice))
}

// Last reads t's last byte on its own non-blocking stream.
func (t *Tensor) Last() byte {
	var s C.hipStream_t
	C.hipStreamCreateWithFlags(&s, C.hipStreamNonBlocking)
	defer C.hipStreamDestroy(s)
	var out byte
	C.hipMemcpyDtoHAsync(unsafe.Pointer(&out), C.hipDeviceptr_t(unsafe.Add(t.ptr, Size-1)), 1, s)
	C.hipStreamSynchronize(s)
	return out
}

// Synchronize waits for the device.
func Synchronize() error {
	return check("hipDeviceSynchronize", C.hipDeviceSynchronize())
}

// copyTensor copies src into dst on the device.
func copyTensor(dst, src *Tensor) error {
	return check("hipMemcpy", C.hipMemcpy(dst.ptr, src.ptr, Size, C.hipMemcpyDeviceToDevice))
}

// MethodValueStale copies through a method value.
func MethodValueStale() byte {
	dst, src := pair()
	defer release(dst, src)
	fill := dst.CopyFrom
	fill(src)
	return dst.Last()
}

// MethodValueSynced is MethodValueStale with the device synchronized before the read.
func MethodValueSynced() byte {
	dst, src := pair()
	defer release(dst, src)
	fill := dst.CopyFrom
	fill(src)
	Synchronize()
	return dst.Last()
}

// MethodExprStale copies through a method expression.
func MethodExprStale() byte {
	dst, src := pair()
	defer release(dst, src)
	(*Tensor).CopyFrom(dst, src)
	return dst.Last()
}

// MethodExprSynced is MethodExprStale with the device synchronized before the read.
func MethodExprSynced() byte {
	dst, src := pair()
	defer release(dst, src)
	(*Tensor).CopyFrom(dst, src)
	Synchronize()
	return dst.Last()
}

// Lease is a tensor borrowed from a pool, embedded by pointer.
type Lease struct {
	*Tensor
	pool string
}

// PromotedStale copies through the promoted method of an embedded tensor.
func PromotedStale() byte {
	d, src := pair()
	defer release(d, src)
	dst := Lease{Tensor: d, pool: "weights"}
	dst.CopyFrom(src)
	return dst.Last()
}

// PromotedSynced is PromotedStale with the device synchronized before the read.
func PromotedSynced() byte {
	d, src := pair()
	defer release(d, src)
	dst := Lease{Tensor: d, pool: "weights"}
	dst.CopyFrom(src)
	Synchronize()
	return dst.Last()
}

// Mover moves tensors between buffers.
type Mover interface {
	Move(dst, src *Tensor) error
}

type deviceMover struct{ dev int }

func (m deviceMover) Move(dst, src *Tensor) error { return copyTensor(dst, src) }

// InterfaceStale copies through an interface method.
func InterfaceStale() byte {
	var m Mover = deviceMover{}
	dst, src := pair()
	defer release(dst, src)
	m.Move(dst, src)
	return dst.Last()
}

// InterfaceSynced is InterfaceStale with the device synchronized before the read.
func InterfaceSynced() byte {
	var m Mover = deviceMover{}
	dst, src := pair()
	defer release(dst, src)
	m.Move(dst, src)
	Synchronize()
	return dst.Last()
}

// Ops are a backend's transfer operations, set once.
type Ops struct {
	copy func(dst, src *Tensor) error
	sync func() error
}

var hipOps = Ops{copy: copyTensor, sync: Synchronize}

// FuncFieldStale copies through a function in a struct field.
func FuncFieldStale() byte {
	dst, src := pair()
	defer release(dst, src)
	hipOps.copy(dst, src)
	return dst.Last()
}

// FuncFieldSynced is FuncFieldStale with the device synchronized before the read.
func FuncFieldSynced() byte {
	dst, src := pair()
	defer release(dst, src)
	hipOps.copy(dst, src)
	hipOps.sync()
	return dst.Last()
}

// TransferOption configures Transfer.
type TransferOption func(*transferConfig)

type transferConfig struct{ label string }

// WithLabel names the transfer.
func WithLabel(l string) TransferOption { return func(c *transferConfig) { c.label = l } }

// Transfer copies src into dst, configured by opts.
func Transfer(dst, src *Tensor, opts ...TransferOption) error {
	var cfg transferConfig
	for _, o := range opts {
		o(&cfg)
	}
	return copyTensor(dst, src)
}

// OptionsStale copies through a function taking functional options.
func OptionsStale() byte {
	dst, src := pair()
	defer release(dst, src)
	Transfer(dst, src, WithLabel("weights"))
	return dst.Last()
}

// OptionsSynced is OptionsStale with the device synchronized before the read.
func OptionsSynced() byte {
	dst, src := pair()
	defer release(dst, src)
	Transfer(dst, src, WithLabel("weights"))
	Synchronize()
	return dst.Last()
}

// copyN copies n elements of T on the device.
func copyN[T any](dst, src unsafe.Pointer, n int) error {
	var zero T
	return check("hipMemcpy", C.hipMemcpy(dst, src, C.size_t(n*int(unsafe.Sizeof(zero))), C.hipMemcpyDeviceToDevice))
}

// GenericStale copies through an instantiated generic function.
func GenericStale() byte {
	dst, src := pair()
	defer release(dst, src)
	copyN[float32](dst.ptr, src.ptr, Size/4)
	return dst.Last()
}

// GenericSynced is GenericStale with the device synchronized before the read.
func GenericSynced() byte {
	dst, src := pair()
	defer release(dst, src)
	copyN[float32](dst.ptr, src.ptr, Size/4)
	Synchronize()
	return dst.Last()
}

// StoredClosureStale copies in a closure stored in a variable and called later.
func StoredClosureStale() byte {
	dst, src := pair()
	defer release(dst, src)
	run := func() error { return copyTensor(dst, src) }
	run()
	return dst.Last()
}

// StoredClosureSynced is StoredClosureStale with the device synchronized before the read.
func StoredClosureSynced() byte {
	dst, src := pair()
	defer release(dst, src)
	run := func() error { return copyTensor(dst, src) }
	run()
	Synchronize()
	return dst.Last()
}

// SelectBranchStale copies in the branch of a select that a ready channel picks.
func SelectBranchStale() byte {
	dst, src := pair()
	defer release(dst, src)
	ready, quit := make(chan struct{}, 1), make(chan struct{})
	ready <- struct{}{}
	select {
	case <-ready:
		copyTensor(dst, src)
	case <-quit:
		return 0
	}
	return dst.Last()
}

// SelectBranchSynced is SelectBranchStale with the device synchronized before the read.
func SelectBranchSynced() byte {
	dst, src := pair()
	defer release(dst, src)
	ready, quit := make(chan struct{}, 1), make(chan struct{})
	ready <- struct{}{}
	select {
	case <-ready:
		copyTensor(dst, src)
	case <-quit:
		return 0
	}
	Synchronize()
	return dst.Last()
}
