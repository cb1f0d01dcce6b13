package copysync

// #cgo CFLAGS: -I${SRCDIR}/../../../include
// #include <hip/hip_runtime_api.h>
import "C"

import "unsafe"

//matrix:hazard data-local
func localHazard(dst, src *Tensor) float32 { // want localHazard:`copiesInto\(hipMemcpy dst=p0\.ptr\)`
	p := dst.ptr
	C.hipMemcpy(p, src.ptr, C.size_t(4*src.n), C.hipMemcpyDeviceToDevice)
	return *(*float32)(p) // want `this dereference reads p on the host before the device-to-device copy into it by C.hipMemcpy is ordered`
}

//matrix:twin data-local
func localTwin(dst, src *Tensor) float32 { // want localTwin:`synchronizes\(device\)`
	p := dst.ptr
	C.hipMemcpy(p, src.ptr, C.size_t(4*src.n), C.hipMemcpyDeviceToDevice)
	C.hipDeviceSynchronize()
	return *(*float32)(p)
}

// job is one transfer of a batch.
type job struct {
	dst, src *Tensor
	label    string
}

//matrix:hazard data-field-local
func fieldLocalHazard(dst, src *Tensor) float32 {
	j := job{dst: dst, src: src, label: "batch"}
	copyTensor(j.dst, j.src)
	return j.dst.Values()[0] // want `this index expression reads j.dst.ptr on the host before the device-to-device copy into it by copyTensor \(C.hipMemcpy\) is ordered`
}

//matrix:twin data-field-local
func fieldLocalTwin(dst, src *Tensor) float32 { // want fieldLocalTwin:`synchronizes\(device\)`
	j := job{dst: dst, src: src, label: "batch"}
	copyTensor(j.dst, j.src)
	Synchronize()
	return j.dst.Values()[0]
}

// Layer holds its weights and the staging buffer they are reloaded from.
type Layer struct {
	weights, staging *Tensor
}

//matrix:hazard data-field-receiver
func (l *Layer) reloadHazard() float32 { // want reloadHazard:`copiesInto\(hipMemcpy dst=r\.weights\.ptr\) readsParams\[-1\.weights\.ptr\]`
	copyTensor(l.weights, l.staging)
	return l.weights.Values()[0] // want `this index expression reads l.weights.ptr on the host before the device-to-device copy into it by copyTensor \(C.hipMemcpy\) is ordered`
}

//matrix:twin data-field-receiver
func (l *Layer) reloadTwin() float32 { // want reloadTwin:`synchronizes\(device\)`
	copyTensor(l.weights, l.staging)
	Synchronize()
	return l.weights.Values()[0]
}

// model is the process's loaded model.
var model struct {
	weights, staging *Tensor
}

//matrix:hazard data-field-pkg
func fieldPkgHazard() float32 { // want fieldPkgHazard:`copiesInto\(hipMemcpy dst=g\.model\.weights\.ptr\)`
	copyTensor(model.weights, model.staging)
	return model.weights.Values()[0] // want `this index expression reads model.weights.ptr on the host before the device-to-device copy into it by copyTensor \(C.hipMemcpy\) is ordered`
}

//matrix:twin data-field-pkg
func fieldPkgTwin() float32 { // want fieldPkgTwin:`synchronizes\(device\)`
	copyTensor(model.weights, model.staging)
	Synchronize()
	return model.weights.Values()[0]
}

var scratch *Tensor

// Scratch returns the process's scratch tensor.
func Scratch() *Tensor { return scratch }

//matrix:hazard data-pkgvar-wrapper
func pkgVarWrapperHazard(src *Tensor) float32 { // want pkgVarWrapperHazard:`copiesInto\(hipMemcpy dst=g\.scratch\.ptr\)`
	copyTensor(Scratch(), src)
	return Scratch().Values()[0] // want `this index expression reads scratch.ptr on the host before the device-to-device copy into it by copyTensor \(C.hipMemcpy\) is ordered`
}

//matrix:twin data-pkgvar-wrapper
func pkgVarWrapperTwin(src *Tensor) float32 { // want pkgVarWrapperTwin:`synchronizes\(device\)`
	copyTensor(Scratch(), src)
	Synchronize()
	return Scratch().Values()[0]
}

//matrix:hazard data-append-loop
func appendLoopHazard(srcs []*Tensor) (float32, error) { // want appendLoopHazard:`readsParams\[0\]`
	var outs []*Tensor
	for _, s := range srcs {
		t, err := NewTensor(s.n)
		if err != nil {
			return 0, err
		}
		copyTensor(t, s)
		outs = append(outs, t)
	}
	return outs[0].Values()[0], nil // want `this index expression reads outs\[0\]\.ptr on the host before the device-to-device copy into it by copyTensor \(C.hipMemcpy\) is ordered`
}

//matrix:twin data-append-loop
func appendLoopTwin(srcs []*Tensor) (float32, error) { // want appendLoopTwin:`readsParams\[0\]`
	var outs []*Tensor
	for _, s := range srcs {
		t, err := NewTensor(s.n)
		if err != nil {
			return 0, err
		}
		copyTensor(t, s)
		outs = append(outs, t)
	}
	if err := Synchronize(); err != nil {
		return 0, err
	}
	return outs[0].Values()[0], nil
}

//matrix:hazard data-chan
func chanHazard(free <-chan *Tensor, src *Tensor) float32 {
	dst := <-free
	copyTensor(dst, src)
	return dst.Values()[0] // want `this index expression reads dst.ptr on the host before the device-to-device copy into it by copyTensor \(C.hipMemcpy\) is ordered`
}

//matrix:twin data-chan
func chanTwin(free <-chan *Tensor, src *Tensor) float32 { // want chanTwin:`synchronizes\(device\)`
	dst := <-free
	copyTensor(dst, src)
	Synchronize()
	return dst.Values()[0]
}

// staged is a copy in flight and where it lands.
type staged struct {
	t     *Tensor
	bytes int
}

// stage copies src into dst and returns it in a staged.
func stage(dst, src *Tensor) staged { // want stage:`copiesInto\(hipMemcpy dst=p0\.ptr; hipMemcpy dst=res0\.t\.ptr\)`
	copyTensor(dst, src)
	return staged{t: dst, bytes: 4 * dst.n}
}

//matrix:hazard data-return-struct
func returnStructHazard(dst, src *Tensor) float32 { // want returnStructHazard:`copiesInto\(hipMemcpy dst=p0\.ptr\)`
	s := stage(dst, src)
	return s.t.Values()[0] // want `this index expression reads s\.t\.ptr on the host before the device-to-device copy into it by stage \(C.hipMemcpy\) is ordered`
}

//matrix:twin data-return-struct
func returnStructTwin(dst, src *Tensor) float32 { // want returnStructTwin:`synchronizes\(device\)`
	s := stage(dst, src)
	Synchronize()
	return s.t.Values()[0]
}

// clone copies src into a new tensor.
func clone(src *Tensor) (*Tensor, error) { // want clone:`copiesInto\(hipMemcpy dst=res0\.ptr\)`
	t, err := NewTensor(src.n)
	if err != nil {
		return nil, err
	}
	return t, copyTensor(t, src)
}

//matrix:hazard data-return-tuple
func returnTupleHazard(src *Tensor) (float32, error) {
	t, err := clone(src)
	if err != nil {
		return 0, err
	}
	return t.Values()[0], nil // want `this index expression reads t\.ptr on the host before the device-to-device copy into it by clone \(C.hipMemcpy\) is ordered`
}

//matrix:twin data-return-tuple
func returnTupleTwin(src *Tensor) (float32, error) {
	t, err := clone(src)
	if err != nil {
		return 0, err
	}
	if err := Synchronize(); err != nil {
		return 0, err
	}
	return t.Values()[0], nil
}

var _ = unsafe.Pointer(nil)
