package copysync

// #cgo CFLAGS: -I${SRCDIR}/../../../include
// #include <hip/hip_runtime_api.h>
import "C"

import "unsafe"

//matrix:na rt-capture-free: a free recorded by stream capture is a graph-free (HL3xxx) event; it copies nothing

// Download copies t to out on st and waits for st.
func (st *Stream) Download(out []float32, t *Tensor) error { // want Download:`deviceReads\(p1\.ptr on r\.s\)`
	if err := check(C.hipMemcpyDtoHAsync(unsafe.Pointer(&out[0]), C.hipDeviceptr_t(t.ptr), C.size_t(4*len(out)), st.s)); err != nil {
		return err
	}
	return check(C.hipStreamSynchronize(st.s))
}

// BlockingStream is a stream created with the default flags: it waits for
// the null stream's work (legacy default-stream semantics).
type BlockingStream struct {
	s C.hipStream_t // want s:`blockingStream`
}

// NewBlockingStream creates a blocking stream.
func NewBlockingStream() (*BlockingStream, error) {
	st := &BlockingStream{}
	return st, check(C.hipStreamCreate(&st.s))
}

// Download copies t to out on st and waits for st.
func (st *BlockingStream) Download(out []float32, t *Tensor) error { // want Download:`deviceReads\(p1\.ptr on r\.s\)`
	if err := check(C.hipMemcpyDtoHAsync(unsafe.Pointer(&out[0]), C.hipDeviceptr_t(t.ptr), C.size_t(4*len(out)), st.s)); err != nil {
		return err
	}
	return check(C.hipStreamSynchronize(st.s))
}

//matrix:hazard rt-blocking-stream
func blockingStreamHazard(st *Stream, dst, src *Tensor, out []float32) error { // want blockingStreamHazard:`copiesInto\(hipMemcpy dst=p1\.ptr\) deviceReads\(p1\.ptr on p0\.s\)`
	copyTensor(dst, src)
	return st.Download(out, dst) // want `Download reads dst.ptr on a non-blocking stream \(it does not wait for other streams\) before the device-to-device copy into it by copyTensor \(C.hipMemcpy\) is ordered`
}

//matrix:twin rt-blocking-stream
func blockingStreamTwin(st *BlockingStream, dst, src *Tensor, out []float32) error { // want blockingStreamTwin:`copiesInto\(hipMemcpy dst=p1\.ptr\) deviceReads\(p1\.ptr on p0\.s\)`
	copyTensor(dst, src)
	return st.Download(out, dst)
}

// download copies t to out on the null stream; the host waits for it.
func download(out []float32, t *Tensor) error { // want download:`synchronizes\(null\) deviceReads\(p1\.ptr on null\)`
	return check(C.hipMemcpy(unsafe.Pointer(&out[0]), t.ptr, C.size_t(4*len(out)), C.hipMemcpyDeviceToHost))
}

//matrix:hazard rt-legacy-stream
func legacyStreamHazard(st *Stream, dst, src *Tensor, out []float32) error { // want legacyStreamHazard:`copiesInto\(hipMemcpyAsync dst=p1\.ptr stream=p0\.s\) synchronizes\(null\) deviceReads\(p1\.ptr on null\)`
	st.CopyAsync(dst, src)
	return download(out, dst) // want `download reads dst.ptr on .* before the device-to-device copy into it by CopyAsync \(C.hipMemcpyAsync\) is ordered`
}

//matrix:twin rt-legacy-stream
func legacyStreamTwin(st *Stream, dst, src *Tensor, out []float32) error { // want legacyStreamTwin:`synchronizes\(null\) deviceReads\(p1\.ptr on null\)`
	copyTensor(dst, src)
	return download(out, dst)
}

//matrix:hazard rt-event-wrapper
func eventWrapperHazard(st *Stream, ev *Event, dst, src *Tensor) float32 { // want eventWrapperHazard:`copiesInto\(hipMemcpyAsync dst=p2\.ptr stream=p0\.s\) readsParams\[2\.ptr\] eventOps\(record p1\.ev on p0\.s\)`
	ev.Record(st)
	st.CopyAsync(dst, src)
	ev.Wait()
	return dst.Values()[0] // want `this index expression reads dst.ptr on the host before the device-to-device copy into it by CopyAsync \(C.hipMemcpyAsync\) is ordered`
}

//matrix:twin rt-event-wrapper
func eventWrapperTwin(st *Stream, ev *Event, dst, src *Tensor) float32 { // want eventWrapperTwin:`readsParams\[2\.ptr\] eventOps\(record p1\.ev on p0\.s\)`
	st.CopyAsync(dst, src)
	ev.Record(st)
	ev.Wait()
	return dst.Values()[0]
}

// Load copies t's size from src, device or host memory as kind says.
func (t *Tensor) Load(src unsafe.Pointer, kind C.hipMemcpyKind) error { // want Load:`copiesInto\(hipMemcpy dst=r\.ptr kind=p1\)`
	return check(C.hipMemcpy(t.ptr, src, C.size_t(4*t.n), kind))
}

// kindFrom is the copy kind from memory on the device or the host.
func kindFrom(onDevice bool) C.hipMemcpyKind {
	if onDevice {
		return C.hipMemcpyDeviceToDevice
	}
	return C.hipMemcpyHostToDevice
}

//matrix:hazard rt-runtime-kind
func runtimeKindHazard(dst *Tensor, src unsafe.Pointer, onDevice bool) float32 { // want runtimeKindHazard:`readsParams\[0\.ptr\]`
	dst.Load(src, kindFrom(onDevice))
	return dst.Values()[0] // want `this index expression reads dst.ptr on the host before the device-to-device copy into it by Load \(C.hipMemcpy\) is ordered`
}

//matrix:twin rt-runtime-kind
func runtimeKindTwin(dst *Tensor, src unsafe.Pointer, onDevice bool) float32 {
	if err := dst.Load(src, kindFrom(onDevice)); err != nil {
		return 0
	}
	Synchronize()
	return dst.Values()[0]
}
