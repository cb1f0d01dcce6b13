package copysync

import (
	"fmt"
	"log"
)

//matrix:hazard defer-loop
func deferLoopHazard(dst *Tensor, staged []*Tensor) float32 { // want deferLoopHazard:`copiesInto\(hipMemcpy dst=p0\.ptr\) readsParams\[0\.ptr 1\]`
	for _, s := range staged {
		defer s.Release()
		defer Synchronize() // runs at return, after the read
		copyTensor(dst, s)
	}
	return dst.Values()[0] // want `this index expression reads dst.ptr on the host before the device-to-device copy into it by copyTensor \(C.hipMemcpy\) is ordered`
}

//matrix:twin defer-loop
func deferLoopTwin(dst *Tensor, staged []*Tensor) float32 { // want deferLoopTwin:`synchronizes\(device\) readsParams\[1\]`
	for _, s := range staged {
		defer s.Release()
		copyTensor(dst, s)
	}
	Synchronize()
	return dst.Values()[0]
}

//matrix:hazard defer-cond
func deferCondHazard(dst, src *Tensor, trace bool) float32 { // want deferCondHazard:`copiesInto\(hipMemcpy dst=p0\.ptr\)`
	if trace {
		defer func() {
			log.Printf("head after copy: %v", dst.Values()[0]) // want `this index expression reads dst.ptr on the host before the device-to-device copy into it by copyTensor \(C.hipMemcpy\) is ordered`
		}()
	}
	copyTensor(dst, src)
	return 0
}

//matrix:twin defer-cond
func deferCondTwin(dst, src *Tensor, trace bool) float32 { // want deferCondTwin:`copiesInto\(hipMemcpy dst=p0\.ptr\)`
	if trace {
		defer func() {
			Synchronize()
			log.Printf("head after copy: %v", dst.Values()[0])
		}()
	}
	copyTensor(dst, src)
	return 0
}

//matrix:hazard defer-named-result
func deferNamedHazard(dst, src *Tensor) (v float32, err error) { // want deferNamedHazard:`readsParams\[0\.ptr\]`
	defer func() {
		if err == nil {
			err = Synchronize() // too late: v was read before
		}
	}()
	if err = copyTensor(dst, src); err != nil {
		return 0, err
	}
	v = dst.Values()[0] // want `this index expression reads dst.ptr on the host before the device-to-device copy into it by copyTensor \(C.hipMemcpy\) is ordered`
	return v, nil
}

//matrix:twin defer-named-result
func deferNamedTwin(dst, src *Tensor) (v float32, err error) {
	defer func() {
		if err != nil {
			err = fmt.Errorf("gather: %w", err)
		}
	}()
	if err = copyTensor(dst, src); err != nil {
		return 0, err
	}
	if err = Synchronize(); err != nil {
		return 0, err
	}
	v = dst.Values()[0]
	return v, nil
}

func must(err error) {
	if err != nil {
		panic(err)
	}
}

//matrix:hazard defer-recover
func deferRecoverHazard(dst, src *Tensor) (v float32, err error) { // want deferRecoverHazard:`copiesInto\(hipMemcpy dst=p0\.ptr\) readsParams\[0\.ptr\]`
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("copysync: %v", r)
		}
	}()
	must(copyTensor(dst, src))
	return dst.Values()[0], nil // want `this index expression reads dst.ptr on the host before the device-to-device copy into it by copyTensor \(C.hipMemcpy\) is ordered`
}

//matrix:twin defer-recover
func deferRecoverTwin(dst, src *Tensor) (v float32, err error) { // want deferRecoverTwin:`synchronizes\(device\)`
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("copysync: %v", r)
		}
	}()
	must(copyTensor(dst, src))
	must(Synchronize())
	return dst.Values()[0], nil
}

//matrix:hazard early-return
func earlyReturnHazard(dst, src *Tensor, peek bool) (float32, error) { // want earlyReturnHazard:`copiesInto\(hipMemcpy dst=p0\.ptr\) readsParams\[0\.ptr\]`
	if err := copyTensor(dst, src); err != nil {
		return 0, err
	}
	if peek {
		return dst.Values()[0], nil // want `this index expression reads dst.ptr on the host before the device-to-device copy into it by copyTensor \(C.hipMemcpy\) is ordered`
	}
	if err := Synchronize(); err != nil {
		return 0, err
	}
	return dst.Values()[0], nil
}

//matrix:twin early-return
func earlyReturnTwin(dst, src *Tensor, peek bool) (float32, error) {
	if err := copyTensor(dst, src); err != nil {
		return 0, err
	}
	if err := Synchronize(); err != nil {
		return 0, err
	}
	if peek {
		return dst.Values()[0], nil
	}
	return dst.Values()[1], nil
}

//matrix:hazard goto
func gotoHazard(dst, src *Tensor, retries int) (float32, error) { // want gotoHazard:`copiesInto\(hipMemcpy dst=p0\.ptr\) readsParams\[0\.ptr\]`
	attempt := 0
retry:
	if err := copyTensor(dst, src); err != nil {
		if attempt++; attempt < retries {
			goto retry
		}
		return 0, err
	}
	return dst.Values()[0], nil // want `this index expression reads dst.ptr on the host before the device-to-device copy into it by copyTensor \(C.hipMemcpy\) is ordered`
}

//matrix:twin goto
func gotoTwin(dst, src *Tensor, retries int) (float32, error) {
	attempt := 0
retry:
	if err := copyTensor(dst, src); err != nil {
		if attempt++; attempt < retries {
			goto retry
		}
		return 0, err
	}
	if err := Synchronize(); err != nil {
		return 0, err
	}
	return dst.Values()[0], nil
}

//matrix:hazard labelled-break
func labelledHazard(dst *Tensor, shards [][]*Tensor) float32 { // want labelledHazard:`copiesInto\(hipMemcpy dst=p0\.ptr\) readsParams\[0\.ptr 1\]`
outer:
	for _, shard := range shards {
		for _, s := range shard {
			if s == nil {
				continue outer
			}
			copyTensor(dst, s)
			if s.n == 0 {
				break outer // skips the synchronize below
			}
		}
		Synchronize()
	}
	return dst.Values()[0] // want `this index expression reads dst.ptr on the host before the device-to-device copy into it by copyTensor \(C.hipMemcpy\) is ordered`
}

//matrix:twin labelled-break
func labelledTwin(dst *Tensor, shards [][]*Tensor) float32 { // want labelledTwin:`synchronizes\(device\) readsParams\[1\]`
outer:
	for _, shard := range shards {
		for _, s := range shard {
			if s == nil {
				continue outer
			}
			copyTensor(dst, s)
			if s.n == 0 {
				break outer
			}
		}
	}
	Synchronize()
	return dst.Values()[0]
}

//matrix:hazard switch-fallthrough
func fallthroughHazard(dst, src *Tensor, mode int) float32 { // want fallthroughHazard:`copiesInto\(hipMemcpy dst=p0\.ptr\) readsParams\[0\.ptr\]`
	switch mode {
	case 0:
		copyTensor(dst, src)
		fallthrough
	case 1: // already resident
	default:
		Synchronize()
	}
	return dst.Values()[0] // want `this index expression reads dst.ptr on the host before the device-to-device copy into it by copyTensor \(C.hipMemcpy\) is ordered`
}

//matrix:twin switch-fallthrough
func fallthroughTwin(dst, src *Tensor, mode int) float32 { // want fallthroughTwin:`readsParams\[0\.ptr\]`
	switch mode {
	case 0:
		copyTensor(dst, src)
		fallthrough
	case 1:
		Synchronize()
	}
	return dst.Values()[0]
}

//matrix:hazard type-switch
func typeSwitchHazard(dst *Tensor, src any) float32 { // want typeSwitchHazard:`copiesInto\(hipMemcpy dst=p0\.ptr\) readsParams\[0\.ptr\]`
	switch s := src.(type) {
	case *Tensor:
		copyTensor(dst, s)
	case []float32:
		copy(dst.Values(), s)
	}
	return dst.Values()[0] // want `this index expression reads dst.ptr on the host before the device-to-device copy into it by copyTensor \(C.hipMemcpy\) is ordered`
}

//matrix:twin type-switch
func typeSwitchTwin(dst *Tensor, src any) float32 { // want typeSwitchTwin:`readsParams\[0\.ptr\]`
	switch s := src.(type) {
	case *Tensor:
		copyTensor(dst, s)
		Synchronize()
	case []float32:
		copy(dst.Values(), s)
	}
	return dst.Values()[0]
}

//matrix:hazard select-branch
func selectHazard(dst, src *Tensor, ready, quit <-chan struct{}) float32 { // want selectHazard:`copiesInto\(hipMemcpy dst=p0\.ptr\) readsParams\[0\.ptr\]`
	copyTensor(dst, src)
	select {
	case <-ready:
		Synchronize()
		return dst.Values()[0]
	case <-quit:
		return dst.Values()[1] // want `this index expression reads dst.ptr on the host before the device-to-device copy into it by copyTensor \(C.hipMemcpy\) is ordered`
	}
}

//matrix:twin select-branch
func selectTwin(dst, src *Tensor, ready, quit <-chan struct{}) float32 { // want selectTwin:`copiesInto\(hipMemcpy dst=p0\.ptr\)`
	copyTensor(dst, src)
	select {
	case <-ready:
		Synchronize()
		return dst.Values()[0]
	case <-quit:
		return 0
	}
}

//matrix:hazard panic-path
func panicHazard(dst, src *Tensor, synced bool) float32 { // want panicHazard:`copiesInto\(hipMemcpy dst=p0\.ptr\) readsParams\[0\.ptr\]`
	copyTensor(dst, src)
	if synced {
		Synchronize()
	} else {
		log.Print("copysync: reading an unsynchronized tensor")
	}
	return dst.Values()[0] // want `this index expression reads dst.ptr on the host before the device-to-device copy into it by copyTensor \(C.hipMemcpy\) is ordered`
}

//matrix:twin panic-path
func panicTwin(dst, src *Tensor, synced bool) float32 { // want panicTwin:`synchronizes\(device\)`
	copyTensor(dst, src)
	if synced {
		Synchronize()
	} else {
		panic("copysync: reading an unsynchronized tensor")
	}
	return dst.Values()[0]
}

//matrix:hazard range-slice
func rangeSliceHazard(dsts []*Tensor, src *Tensor) (sum float32) { // want rangeSliceHazard:`readsParams\[0\]`
	for _, d := range dsts {
		copyTensor(d, src)
		sum += d.Values()[0] // want `this index expression reads d.ptr on the host before the device-to-device copy into it by copyTensor \(C.hipMemcpy\) is ordered`
	}
	return sum
}

//matrix:twin range-slice
func rangeSliceTwin(dsts []*Tensor, src *Tensor) (sum float32) { // want rangeSliceTwin:`readsParams\[0\]`
	for _, d := range dsts {
		copyTensor(d, src)
		Synchronize()
		sum += d.Values()[0]
	}
	return sum
}

//matrix:hazard range-map
func rangeMapHazard(byName map[string]*Tensor, src *Tensor) map[string]float32 { // want rangeMapHazard:`readsParams\[0\]`
	heads := map[string]float32{}
	for name, d := range byName {
		copyTensor(d, src)
		heads[name] = d.Values()[0] // want `this index expression reads d.ptr on the host before the device-to-device copy into it by copyTensor \(C.hipMemcpy\) is ordered`
	}
	return heads
}

//matrix:twin range-map
func rangeMapTwin(byName map[string]*Tensor, src *Tensor) map[string]float32 { // want rangeMapTwin:`readsParams\[0\]`
	heads := map[string]float32{}
	for name, d := range byName {
		copyTensor(d, src)
		Synchronize()
		heads[name] = d.Values()[0]
	}
	return heads
}

//matrix:hazard range-chan
func rangeChanHazard(queue <-chan *Tensor, src *Tensor, heads chan<- float32) { // want rangeChanHazard:`readsParams\[0\]`
	for d := range queue {
		copyTensor(d, src)
		heads <- d.Values()[0] // want `this index expression reads d.ptr on the host before the device-to-device copy into it by copyTensor \(C.hipMemcpy\) is ordered`
	}
}

//matrix:twin range-chan
func rangeChanTwin(queue <-chan *Tensor, src *Tensor, heads chan<- float32) { // want rangeChanTwin:`readsParams\[0\]`
	for d := range queue {
		copyTensor(d, src)
		Synchronize()
		heads <- d.Values()[0]
	}
}

//matrix:hazard range-int
func rangeIntHazard(dst *Tensor, srcs []*Tensor) (sum float32) { // want rangeIntHazard:`copiesInto\(hipMemcpy dst=p0\.ptr\) readsParams\[0\.ptr 1\]`
	for i := range len(srcs) {
		copyTensor(dst, srcs[i])
		sum += dst.Values()[0] // want `this index expression reads dst.ptr on the host before the device-to-device copy into it by copyTensor \(C.hipMemcpy\) is ordered`
	}
	return sum
}

//matrix:twin range-int
func rangeIntTwin(dst *Tensor, srcs []*Tensor) (sum float32) { // want rangeIntTwin:`readsParams\[1\]`
	for i := range len(srcs) {
		copyTensor(dst, srcs[i])
		Synchronize()
		sum += dst.Values()[0]
	}
	return sum
}

// Pool is a set of tensors.
type Pool struct{ free []*Tensor }

// All yields the pool's tensors.
func (p *Pool) All() func(yield func(*Tensor) bool) {
	return func(yield func(*Tensor) bool) {
		for _, t := range p.free {
			if !yield(t) {
				return
			}
		}
	}
}

//matrix:hazard range-func
func rangeFuncHazard(p *Pool, src *Tensor) (sum float32) {
	for d := range p.All() {
		copyTensor(d, src)
		sum += d.Values()[0] // want `this index expression reads d.ptr on the host before the device-to-device copy into it by copyTensor \(C.hipMemcpy\) is ordered`
	}
	return sum
}

//matrix:twin range-func
func rangeFuncTwin(p *Pool, src *Tensor) (sum float32) {
	for d := range p.All() {
		copyTensor(d, src)
		Synchronize()
		sum += d.Values()[0]
	}
	return sum
}

//matrix:hazard two-loops
func twoLoopsHazard(dsts []*Tensor, src *Tensor) (sum float32) { // want twoLoopsHazard:`readsParams\[0\]`
	for _, d := range dsts {
		copyTensor(d, src)
	}
	for _, d := range dsts {
		sum += d.Values()[0] // want `this index expression reads d.ptr on the host before the device-to-device copy into it by copyTensor`
	}
	return sum
}

//matrix:twin two-loops
func twoLoopsTwin(dsts []*Tensor, src *Tensor) (sum float32) { // want twoLoopsTwin:`synchronizes\(device\) readsParams\[0\]`
	for _, d := range dsts {
		copyTensor(d, src)
	}
	Synchronize()
	for _, d := range dsts {
		sum += d.Values()[0]
	}
	return sum
}
