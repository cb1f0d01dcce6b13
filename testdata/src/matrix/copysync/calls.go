package copysync

// #cgo CFLAGS: -I${SRCDIR}/../../../include
// #include <hip/hip_runtime_api.h>
import "C"

import (
	"unsafe"

	"matrix/copysynclib"
)

var _ Copier = (*copysynclib.Device)(nil)

//matrix:hazard call-direct
func directHazard(dst, src *Tensor) float32 { // want directHazard:`copiesInto\(hipMemcpy dst=p0\.ptr\) readsParams\[0\.ptr\]`
	copyTensor(dst, src)
	return dst.Values()[0] // want `this index expression reads dst.ptr on the host before the device-to-device copy into it by copyTensor \(C.hipMemcpy\) is ordered`
}

//matrix:twin call-direct
func directTwin(dst, src *Tensor) float32 { // want directTwin:`synchronizes\(device\)`
	copyTensor(dst, src)
	Synchronize()
	return dst.Values()[0]
}

//matrix:hazard call-method-value
func methodValueHazard(dst, src *Tensor) float32 { // want methodValueHazard:`readsParams\[0\.ptr\]`
	fill := dst.CopyFrom
	fill(src)
	return dst.Values()[0] // want `this index expression reads dst.ptr on the host before the device-to-device copy into it by CopyFrom \(C.hipMemcpy\) is ordered`
}

//matrix:twin call-method-value
func methodValueTwin(dst, src *Tensor) float32 { // want methodValueTwin:`synchronizes\(device\)`
	fill := dst.CopyFrom
	fill(src)
	Synchronize()
	return dst.Values()[0]
}

//matrix:hazard call-method-expr
func methodExprHazard(dst, src *Tensor) float32 { // want methodExprHazard:`readsParams\[0\.ptr\]`
	(*Tensor).CopyFrom(dst, src)
	return dst.Values()[0] // want `this index expression reads dst.ptr on the host before the device-to-device copy into it by CopyFrom \(C.hipMemcpy\) is ordered`
}

//matrix:twin call-method-expr
func methodExprTwin(dst, src *Tensor) float32 { // want methodExprTwin:`synchronizes\(device\)`
	(*Tensor).CopyFrom(dst, src)
	Synchronize()
	return dst.Values()[0]
}

// Pooled is a tensor of a pool: the tensor embedded by value.
type Pooled struct {
	Tensor
	slot int
}

//matrix:hazard call-promoted-value
func promotedValueHazard(dst *Pooled, src *Tensor) float32 { // want promotedValueHazard:`copiesInto\(hipMemcpy dst=p0\.ptr\) readsParams\[0\.ptr\]`
	dst.CopyFrom(src)
	return dst.Values()[0] // want `this index expression reads dst.ptr on the host before the device-to-device copy into it by CopyFrom \(C.hipMemcpy\) is ordered`
}

//matrix:twin call-promoted-value
func promotedValueTwin(dst *Pooled, src *Tensor) float32 { // want promotedValueTwin:`synchronizes\(device\)`
	dst.CopyFrom(src)
	Synchronize()
	return dst.Values()[0]
}

// Lease is a tensor borrowed from a pool: the tensor embedded by pointer.
type Lease struct {
	*Tensor
	pool string
}

//matrix:hazard call-promoted-pointer
func promotedPointerHazard(dst Lease, src *Tensor) float32 { // want promotedPointerHazard:`copiesInto\(hipMemcpy dst=p0\.ptr\) readsParams\[0\.ptr\]`
	dst.CopyFrom(src)
	return dst.Values()[0] // want `this index expression reads dst.ptr on the host before the device-to-device copy into it by CopyFrom \(C.hipMemcpy\) is ordered`
}

//matrix:twin call-promoted-pointer
func promotedPointerTwin(dst Lease, src *Tensor) float32 { // want promotedPointerTwin:`synchronizes\(device\)`
	dst.CopyFrom(src)
	Synchronize()
	return dst.Values()[0]
}

// Slot holds a lease: two levels of embedding down to the tensor.
type Slot struct {
	Lease
	busy bool
}

//matrix:hazard call-promoted-two
func promotedTwoHazard(dst *Slot, src *Tensor) float32 { // want promotedTwoHazard:`copiesInto\(hipMemcpy dst=p0\.ptr\) readsParams\[0\.ptr\]`
	dst.CopyFrom(src)
	return dst.Values()[0] // want `this index expression reads dst.ptr on the host before the device-to-device copy into it by CopyFrom \(C.hipMemcpy\) is ordered`
}

//matrix:twin call-promoted-two
func promotedTwoTwin(dst *Slot, src *Tensor) float32 { // want promotedTwoTwin:`synchronizes\(device\)`
	dst.CopyFrom(src)
	Synchronize()
	return dst.Values()[0]
}

// Mover moves tensors between buffers.
type Mover interface {
	Move(dst, src *Tensor) error
}

// deviceMover moves on the current device.
type deviceMover struct{ dev int }

func (m deviceMover) Move(dst, src *Tensor) error { // want Move:`copiesInto\(hipMemcpy dst=p0\.ptr\)`
	return copyTensor(dst, src)
}

//matrix:hazard call-iface-local
func ifaceLocalHazard(m Mover, dst, src *Tensor) float32 { // want ifaceLocalHazard:`copiesInto\(hipMemcpy dst=p1\.ptr\) readsParams\[1\.ptr\]`
	m.Move(dst, src)
	return dst.Values()[0] // want `this index expression reads dst.ptr on the host before the device-to-device copy into it by Move \(C.hipMemcpy\) is ordered`
}

//matrix:twin call-iface-local
func ifaceLocalTwin(m Mover, dst, src *Tensor) float32 { // want ifaceLocalTwin:`synchronizes\(device\)`
	m.Move(dst, src)
	Synchronize()
	return dst.Values()[0]
}

// Copier is implemented by copysynclib.Device.
type Copier interface {
	CopyPtr(dst, src unsafe.Pointer, bytes int) error
}

//matrix:hazard call-iface-cross
func ifaceCrossHazard(c Copier, dst, src *Tensor) float32 { // want ifaceCrossHazard:`copiesInto\(hipMemcpy dst=p1\.ptr\) readsParams\[1\.ptr\]`
	c.CopyPtr(dst.ptr, src.ptr, 4*dst.n)
	return dst.Values()[0] // want `this index expression reads dst.ptr on the host before the device-to-device copy into it by CopyPtr \(C.hipMemcpy\) is ordered`
}

//matrix:twin call-iface-cross
func ifaceCrossTwin(c Copier, dst, src *Tensor) float32 { // want ifaceCrossTwin:`synchronizes\(device\)`
	c.CopyPtr(dst.ptr, src.ptr, 4*dst.n)
	Synchronize()
	return dst.Values()[0]
}

// Ops are the transfer operations of a backend, set once.
type Ops struct {
	copy func(dst, src *Tensor) error
	sync func() error
}

var hipOps = Ops{copy: copyTensor, sync: Synchronize}

//matrix:hazard call-func-field
func funcFieldHazard(dst, src *Tensor) float32 { // want funcFieldHazard:`copiesInto\(hipMemcpy dst=p0\.ptr\) readsParams\[0\.ptr\]`
	hipOps.copy(dst, src)
	return dst.Values()[0] // want `this index expression reads dst.ptr on the host before the device-to-device copy into it by copyTensor \(C.hipMemcpy\) is ordered`
}

//matrix:twin call-func-field
func funcFieldTwin(dst, src *Tensor) float32 { // want funcFieldTwin:`synchronizes\(device\)`
	hipOps.copy(dst, src)
	hipOps.sync()
	return dst.Values()[0]
}

// transfers are the copy routines by name.
var transfers = map[string]func(dst, src *Tensor) error{
	"d2d": copyTensor,
}

//matrix:hazard call-func-map
func funcMapHazard(dst, src *Tensor) float32 { // want funcMapHazard:`readsParams\[0\.ptr\]`
	transfers["d2d"](dst, src)
	return dst.Values()[0] // want `this index expression reads dst.ptr on the host before the device-to-device copy into it by copyTensor \(C.hipMemcpy\) is ordered`
}

//matrix:twin call-func-map
func funcMapTwin(dst, src *Tensor) float32 { // want funcMapTwin:`synchronizes\(device\)`
	transfers["d2d"](dst, src)
	Synchronize()
	return dst.Values()[0]
}

// TransferOption configures Transfer.
type TransferOption func(*transferConfig)

type transferConfig struct {
	label string
	bytes int
}

// WithLabel names the transfer in traces.
func WithLabel(l string) TransferOption { return func(c *transferConfig) { c.label = l } }

// Transfer copies src into dst on the device, configured by opts.
func Transfer(dst, src *Tensor, opts ...TransferOption) error { // want Transfer:`copiesInto\(hipMemcpy dst=p0\.ptr\) readsParams\[2\]`
	cfg := transferConfig{bytes: 4 * dst.n}
	for _, o := range opts {
		o(&cfg)
	}
	return copyTensor(dst, src)
}

//matrix:hazard call-options
func optionsHazard(dst, src *Tensor) float32 { // want optionsHazard:`copiesInto\(hipMemcpy dst=p0\.ptr\) readsParams\[0\.ptr\]`
	Transfer(dst, src, WithLabel("weights"))
	return dst.Values()[0] // want `this index expression reads dst.ptr on the host before the device-to-device copy into it by Transfer \(C.hipMemcpy\) is ordered`
}

//matrix:twin call-options
func optionsTwin(dst, src *Tensor) float32 { // want optionsTwin:`synchronizes\(device\)`
	Transfer(dst, src, WithLabel("weights"))
	Synchronize()
	return dst.Values()[0]
}

// copyN copies n elements of T on the device.
func copyN[T any](dst, src unsafe.Pointer, n int) error { // want copyN:`copiesInto\(hipMemcpy dst=p0\)`
	var zero T
	return check(C.hipMemcpy(dst, src, C.size_t(n*int(unsafe.Sizeof(zero))), C.hipMemcpyDeviceToDevice))
}

//matrix:hazard call-generic-func
func genericFuncHazard(dst, src *Tensor) float32 { // want genericFuncHazard:`copiesInto\(hipMemcpy dst=p0\.ptr\) readsParams\[0\.ptr\]`
	copyN[float32](dst.ptr, src.ptr, dst.n)
	return dst.Values()[0] // want `this index expression reads dst.ptr on the host before the device-to-device copy into it by copyN \(C.hipMemcpy\) is ordered`
}

//matrix:twin call-generic-func
func genericFuncTwin(dst, src *Tensor) float32 { // want genericFuncTwin:`synchronizes\(device\)`
	copyN[float32](dst.ptr, src.ptr, dst.n)
	Synchronize()
	return dst.Values()[0]
}

// Typed is device memory of n values of T.
type Typed[T any] struct {
	ptr unsafe.Pointer
	n   int
}

// CopyFrom copies src into t on the device.
func (t *Typed[T]) CopyFrom(src *Typed[T]) error { // want CopyFrom:`copiesInto\(hipMemcpy dst=r\.ptr\)`
	var zero T
	return check(C.hipMemcpy(t.ptr, src.ptr, C.size_t(t.n*int(unsafe.Sizeof(zero))), C.hipMemcpyDeviceToDevice))
}

// At reads element i on the host.
func (t *Typed[T]) At(i int) T { // want At:`readsParams\[-1\.ptr\]`
	return unsafe.Slice((*T)(t.ptr), t.n)[i]
}

//matrix:hazard call-generic-method
func genericMethodHazard(dst, src *Typed[float32]) float32 { // want genericMethodHazard:`copiesInto\(hipMemcpy dst=p0\.ptr\) readsParams\[0\.ptr\]`
	dst.CopyFrom(src)
	return dst.At(0) // want `At reads dst\.ptr on the host before the device-to-device copy into it by CopyFrom \(C.hipMemcpy\) is ordered`
}

//matrix:twin call-generic-method
func genericMethodTwin(dst, src *Typed[float32]) float32 { // want genericMethodTwin:`synchronizes\(device\)`
	dst.CopyFrom(src)
	Synchronize()
	return dst.At(0)
}
