package copysync

import "sync"

//matrix:hazard conc-waitgroup
func waitGroupHazard(weights, bias, src *Tensor) float32 { // want waitGroupHazard:`copiesInto\(hipMemcpy dst=p0\.ptr; hipMemcpy dst=p1\.ptr\) readsParams\[0\.ptr 1\.ptr\]`
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		copyTensor(weights, src) // each stage copies; none synchronizes
	}()
	go func() {
		defer wg.Done()
		copyTensor(bias, src)
	}()
	wg.Wait()
	return weights.Values()[0] + bias.Values()[0] // want `this index expression reads weights.ptr on the host before the device-to-device copy into it by copyTensor \(C.hipMemcpy\) is ordered` `this index expression reads bias.ptr on the host before the device-to-device copy into it by copyTensor \(C.hipMemcpy\) is ordered`
}

//matrix:twin conc-waitgroup
func waitGroupTwin(weights, bias, src *Tensor) float32 { // want waitGroupTwin:`synchronizes\(device\)`
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		copyTensor(weights, src)
		Synchronize()
	}()
	go func() {
		defer wg.Done()
		copyTensor(bias, src)
		Synchronize()
	}()
	wg.Wait()
	return weights.Values()[0] + bias.Values()[0]
}

//matrix:hazard conc-chan-join
func chanJoinHazard(dst, src *Tensor) float32 { // want chanJoinHazard:`readsParams\[0\.ptr\]`
	done := make(chan error)
	go func() { done <- copyTensor(dst, src) }()
	if err := <-done; err != nil {
		return 0
	}
	return dst.Values()[0] // want `this index expression reads dst.ptr on the host before the device-to-device copy into it by copyTensor \(C.hipMemcpy\) is ordered`
}

//matrix:twin conc-chan-join
func chanJoinTwin(dst, src *Tensor) float32 { // want chanJoinTwin:`readsParams\[0\.ptr\]`
	done := make(chan error)
	go func() {
		if err := copyTensor(dst, src); err != nil {
			done <- err
			return
		}
		done <- Synchronize()
	}()
	if err := <-done; err != nil {
		return 0
	}
	return dst.Values()[0]
}

// Group runs functions in goroutines and waits for them (errgroup-style).
type Group struct {
	wg   sync.WaitGroup
	once sync.Once
	err  error
}

// Go runs fn in a goroutine.
func (g *Group) Go(fn func() error) {
	g.wg.Add(1)
	go func() {
		defer g.wg.Done()
		if err := fn(); err != nil {
			g.once.Do(func() { g.err = err })
		}
	}()
}

// Wait waits for every fn and returns the first error.
func (g *Group) Wait() error {
	g.wg.Wait()
	return g.err
}

//matrix:hazard conc-errgroup
func errgroupHazard(dst, src *Tensor) (float32, error) { // want errgroupHazard:`copiesInto\(hipMemcpy dst=p0\.ptr\) readsParams\[0\.ptr\]`
	var g Group
	g.Go(func() error { return copyTensor(dst, src) })
	if err := g.Wait(); err != nil {
		return 0, err
	}
	return dst.Values()[0], nil // want `this index expression reads dst.ptr on the host before the device-to-device copy into it by copyTensor \(C.hipMemcpy\) is ordered`
}

//matrix:twin conc-errgroup
func errgroupTwin(dst, src *Tensor) (float32, error) { // want errgroupTwin:`readsParams\[0\.ptr\]`
	var g Group
	g.Go(func() error {
		if err := copyTensor(dst, src); err != nil {
			return err
		}
		return Synchronize()
	})
	if err := g.Wait(); err != nil {
		return 0, err
	}
	return dst.Values()[0], nil
}

// The copy stream and its completion event live in package variables.
var (
	copyStream *Stream
	copyDone   *Event
)

//matrix:hazard conc-pkg-handles
func pkgHandlesHazard(dst, src *Tensor) float32 { // want pkgHandlesHazard:`copiesInto\(hipMemcpyAsync dst=p0\.ptr stream=private\) readsParams\[0\.ptr\]`
	copyStream.CopyAsync(dst, src)
	copyDone.Record(copyStream)
	return dst.Values()[0] // want `this index expression reads dst.ptr on the host before the device-to-device copy into it by CopyAsync \(C.hipMemcpyAsync\) is ordered`
}

//matrix:twin conc-pkg-handles
func pkgHandlesTwin(dst, src *Tensor) float32 { // want pkgHandlesTwin:`readsParams\[0\.ptr\]`
	copyStream.CopyAsync(dst, src)
	copyDone.Record(copyStream)
	copyDone.Wait()
	return dst.Values()[0]
}
