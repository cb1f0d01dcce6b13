// Package realwrap is a library in the style real Go GPU bindings use:
// buffers, streams and events as types with methods, and no host access of
// its own. Its callers see what it does through facts.
package realwrap

// #cgo CFLAGS: -I${SRCDIR}/../../../include
// #include <hip/hip_runtime_api.h>
// static void lib_scale(float* x, int n, hipStream_t s) { (void)x; (void)n; (void)s; }
import "C"

import (
	"errors"
	"unsafe"
)

func check(r C.hipError_t) error {
	if r != C.hipSuccess {
		return errors.New("hip error")
	}
	return nil
}

// Kernel is a kernel function of a loaded module.
type Kernel struct{ f C.hipFunction_t }

// Stream is a stream handle.
type Stream struct{ s C.hipStream_t } // want s:"blockingStream"

// NewStream creates a blocking stream.
func NewStream() (*Stream, error) {
	st := &Stream{}
	return st, check(C.hipStreamCreate(&st.s))
}

// NonBlocking is a non-blocking stream.
type NonBlocking struct{ s C.hipStream_t } // want s:"nonBlockingStream"

// NewNonBlocking creates a non-blocking stream.
func NewNonBlocking() (*NonBlocking, error) {
	st := &NonBlocking{}
	return st, check(C.hipStreamCreateWithFlags(&st.s, C.hipStreamNonBlocking))
}

// Sync waits for the stream.
func (st *Stream) Sync() error { // want Sync:`synchronizes\(r.s\)`
	return check(C.hipStreamSynchronize(st.s))
}

// Sync waits for the stream.
func (st *NonBlocking) Sync() error { // want Sync:`synchronizes\(r.s\)`
	return check(C.hipStreamSynchronize(st.s))
}

// Event is an event handle.
type Event struct{ ev C.hipEvent_t }

// Record records the event on the null stream.
func (e *Event) Record() error { // want Record:`eventOps\(record r.ev on null\)`
	return check(C.hipEventRecord(e.ev, nil))
}

// RecordOn records the event on a stream.
func (e *Event) RecordOn(st *NonBlocking) error { // want RecordOn:`eventOps\(record r.ev on p0.s\)`
	return check(C.hipEventRecord(e.ev, st.s))
}

// Wait blocks the host until the event completes.
func (e *Event) Wait() error { // want Wait:`eventOps\(sync r.ev\)`
	return check(C.hipEventSynchronize(e.ev))
}

// WaitEvent makes the stream wait for the event.
func (st *NonBlocking) WaitEvent(e *Event) error { // want WaitEvent:`eventOps\(wait p0.ev on r.s\)`
	return check(C.hipStreamWaitEvent(st.s, e.ev, 0))
}

// Download copies device memory to the host on the null stream: a blocking
// copy, ordered after the null stream's work.
func Download(dst []float32, src unsafe.Pointer) error { // want Download:`synchronizes\(null\) deviceReads\(p1 on null\)`
	return check(C.hipMemcpy(unsafe.Pointer(&dst[0]), src, C.size_t(4*len(dst)), C.hipMemcpyDeviceToHost))
}

// DownloadDtoH is Download with the typed form.
func DownloadDtoH(dst []float32, src unsafe.Pointer) error { // want DownloadDtoH:`synchronizes\(null\) deviceReads\(p1 on null\)`
	return check(C.hipMemcpyDtoH(unsafe.Pointer(&dst[0]), C.hipDeviceptr_t(src), C.size_t(4*len(dst))))
}

// DownloadAsync copies device memory to the host on a non-blocking stream.
func (st *NonBlocking) DownloadAsync(dst []float32, src unsafe.Pointer) error { // want DownloadAsync:`deviceReads\(p1 on r.s\)`
	return check(C.hipMemcpyAsync(unsafe.Pointer(&dst[0]), src, C.size_t(4*len(dst)), C.hipMemcpyDeviceToHost, st.s))
}

// Scale launches a kernel on the stream with x among its arguments.
func (st *NonBlocking) Scale(k *Kernel, x unsafe.Pointer, n int) error { // want Scale:`deviceReads\(p1 on r.s\)`
	cn := C.int(n)
	args := []unsafe.Pointer{unsafe.Pointer(&x), unsafe.Pointer(&cn)}
	return check(C.hipModuleLaunchKernel(k.f, 1, 1, 1, 64, 1, 1, 0, st.s, &args[0], nil))
}

// ScaleNull launches a kernel on the null stream with x among its arguments.
func ScaleNull(k *Kernel, x unsafe.Pointer, n int) error { // want ScaleNull:`deviceReads\(p1 on null\)`
	cn := C.int(n)
	args := []unsafe.Pointer{unsafe.Pointer(&x), unsafe.Pointer(&cn)}
	return check(C.hipModuleLaunchKernel(k.f, 1, 1, 1, 64, 1, 1, 0, nil, &args[0], nil))
}

// LibScale calls a library routine on x on the stream.
func (st *NonBlocking) LibScale(x unsafe.Pointer, n int) { // want LibScale:`deviceReads\(p0 on r.s\)`
	C.lib_scale((*C.float)(x), C.int(n), st.s)
}

// LibScaleNull calls a library routine on x on the null stream.
func LibScaleNull(x unsafe.Pointer, n int) { // want LibScaleNull:`deviceReads\(p0 on null\)`
	C.lib_scale((*C.float)(x), C.int(n), nil)
}
