package copysync

import (
	"log"
	"sync"
)

//matrix:hazard closure-in-place
func inPlaceHazard(dst, src *Tensor) float32 { // want inPlaceHazard:`readsParams\[0\.ptr\]`
	func() {
		copyTensor(dst, src)
	}()
	return dst.Values()[0] // want `this index expression reads dst.ptr on the host before the device-to-device copy into it by copyTensor \(C.hipMemcpy\) is ordered`
}

//matrix:twin closure-in-place
func inPlaceTwin(dst, src *Tensor) float32 { // want inPlaceTwin:`synchronizes\(device\)`
	func() {
		copyTensor(dst, src)
		Synchronize()
	}()
	return dst.Values()[0]
}

//matrix:hazard closure-stored
func storedHazard(dst, src *Tensor) float32 { // want storedHazard:`readsParams\[0\.ptr\]`
	refresh := func() error { return copyTensor(dst, src) }
	refresh()
	return dst.Values()[0] // want `this index expression reads dst.ptr on the host before the device-to-device copy into it by copyTensor \(C.hipMemcpy\) is ordered`
}

//matrix:twin closure-stored
func storedTwin(dst, src *Tensor) float32 { // want storedTwin:`synchronizes\(device\)`
	refresh := func() error { return copyTensor(dst, src) }
	refresh()
	Synchronize()
	return dst.Values()[0]
}

// A stored closure's own copy and read are its own analysis's finding:
// reported once, not again at its call.
func storedOwnCopy(dst, src *Tensor) { // want storedOwnCopy:`copiesInto\(hipMemcpy dst=p0\.ptr\) readsParams\[0\.ptr\]`
	check := func() {
		copyTensor(dst, src)
		log.Printf("copied, head %v", dst.Values()[0]) // want `this index expression reads dst.ptr on the host before the device-to-device copy into it by copyTensor \(C.hipMemcpy\) is ordered`
	}
	check()
}

// A closure stored and called before the copy reads nothing in flight.
func storedBeforeCopy(dst, src *Tensor) float32 { // want storedBeforeCopy:`synchronizes\(device\) readsParams\[0\.ptr\]`
	var head float32
	peek := func() { head = dst.Values()[0] }
	peek()
	copyTensor(dst, src)
	Synchronize()
	return head
}

//matrix:hazard closure-deferred
func deferredHazard(dst, src *Tensor) (err error) { // want deferredHazard:`copiesInto\(hipMemcpy dst=p0\.ptr\)`
	defer func() {
		log.Printf("copied, head %v", dst.Values()[0]) // want `this index expression reads dst.ptr on the host before the device-to-device copy into it by copyTensor \(C.hipMemcpy\) is ordered`
	}()
	return copyTensor(dst, src)
}

//matrix:twin closure-deferred
func deferredTwin(dst, src *Tensor) (err error) { // want deferredTwin:`synchronizes\(device\)`
	defer func() {
		Synchronize()
		log.Printf("copied, head %v", dst.Values()[0])
	}()
	return copyTensor(dst, src)
}

// A deferred closure's own copy and read are its own analysis's finding:
// reported once, not again where the function runs it at its exit.
func deferredOwnCopy(dst, src *Tensor) { // want deferredOwnCopy:`copiesInto\(hipMemcpy dst=p0\.ptr\) readsParams\[0\.ptr\]`
	defer func() {
		copyTensor(dst, src)
		log.Printf("copied, head %v", dst.Values()[0]) // want `this index expression reads dst.ptr on the host before the device-to-device copy into it by copyTensor \(C.hipMemcpy\) is ordered`
	}()
}

//matrix:hazard closure-go
func goHazard(dst, src *Tensor, out chan<- float32) { // want goHazard:`copiesInto\(hipMemcpy dst=p0\.ptr\)`
	copyTensor(dst, src)
	go func() { out <- dst.Values()[0] }() // want `the goroutine started here reads dst concurrently with the copy`
}

//matrix:twin closure-go
func goTwin(dst, src *Tensor, out chan<- float32) { // want goTwin:`synchronizes\(device\)`
	copyTensor(dst, src)
	Synchronize()
	go func() { out <- dst.Values()[0] }()
}

// deviceMu serializes the work of the device.
var deviceMu sync.Mutex

// locked runs fn holding the device's lock.
func locked(fn func() error) error {
	deviceMu.Lock()
	defer deviceMu.Unlock()
	return fn()
}

//matrix:hazard closure-helper
func helperHazard(dst, src *Tensor) float32 { // want helperHazard:`copiesInto\(hipMemcpy dst=p0\.ptr\) readsParams\[0\.ptr\]`
	locked(func() error { return copyTensor(dst, src) })
	return dst.Values()[0] // want `this index expression reads dst.ptr on the host before the device-to-device copy into it by copyTensor \(C.hipMemcpy\) is ordered`
}

//matrix:twin closure-helper
func helperTwin(dst, src *Tensor) float32 { // want helperTwin:`readsParams\[0\.ptr\]`
	locked(func() error {
		if err := copyTensor(dst, src); err != nil {
			return err
		}
		return Synchronize()
	})
	return dst.Values()[0]
}
