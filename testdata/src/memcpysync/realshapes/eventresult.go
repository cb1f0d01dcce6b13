package realshapes

// #include <hip/hip_runtime_api.h>
import "C"

import "unsafe"

// Fence is an event a copy helper hands back.
type Fence struct{ ev C.hipEvent_t }

// Wait blocks until the fence's event has completed.
func (f *Fence) Wait() { // want Wait:`eventOps\(sync r\.ev\)`
	C.hipEventSynchronize(f.ev)
}

func fenceOn(s C.hipStream_t) *Fence { // want fenceOn:`eventOps\(record res0\.ev on p0\)`
	f := &Fence{}
	C.hipEventCreate(&f.ev)
	C.hipEventRecord(f.ev, s)
	return f
}

// copyFenced copies on s and returns an event recorded after the copy.
func copyFenced(dst, src unsafe.Pointer, s C.hipStream_t) *Fence { // want copyFenced:`copiesInto\(hipMemcpyAsync dst=p0 stream=p2\) eventOps\(record res0\.ev on p2\)`
	C.hipMemcpyAsync(dst, src, 256, C.hipMemcpyDeviceToDevice, s)
	return fenceOn(s)
}

// copyFencedEarly records the event before it copies: waiting for it
// does not wait for the copy.
func copyFencedEarly(dst, src unsafe.Pointer, s C.hipStream_t) *Fence { // want copyFencedEarly:`copiesInto\(hipMemcpyAsync dst=p0 stream=p2\)`
	f := fenceOn(s)
	C.hipMemcpyAsync(dst, src, 256, C.hipMemcpyDeviceToDevice, s)
	return f
}

// Waiting for the returned event orders the read after the copy.
func fencedTwin(s C.hipStream_t) float32 {
	dst, src := buffers()
	copyFenced(dst, src, s).Wait()
	return *(*float32)(dst)
}

// Waiting for an event recorded before the copy does not.
func fencedEarlyHazard(s C.hipStream_t) float32 {
	dst, src := buffers()
	f := copyFencedEarly(dst, src, s)
	f.Wait()
	return *(*float32)(dst) // want `this dereference reads dst on the host before the device-to-device copy`
}
