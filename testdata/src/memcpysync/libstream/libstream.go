// Package libstream calls a GPU library (in the style of hipBLAS, rocBLAS and
// cuBLAS) whose routines take no stream: they run on the stream their handle
// was bound to with the library's set-stream routine.
package libstream

// #cgo CFLAGS: -I${SRCDIR}/../../../include
// #include <hip/hip_runtime_api.h>
// typedef struct blas_ctx* blas_handle;
// static int blas_set_stream(blas_handle h, hipStream_t s) { (void)h; (void)s; return 0; }
// static int blasSetStream(blas_handle h, hipStream_t s) { (void)h; (void)s; return 0; }
// static int blas_sscal(blas_handle h, int n, const float* alpha, float* x, int inc) { (void)h; (void)n; (void)alpha; (void)x; (void)inc; return 0; }
import "C"

import "unsafe"

// ScalOnCopyStream binds the handle to the stream the copy runs on: the
// routine is ordered after the copy.
func ScalOnCopyStream(h C.blas_handle, s C.hipStream_t, dst, src unsafe.Pointer, n int) { // want ScalOnCopyStream:`copiesInto\(hipMemcpyAsync dst=p2 stream=p1\) deviceReads\(p0 on p1; p2 on p1\)`
	C.blas_set_stream(h, s)
	C.hipMemcpyAsync(dst, src, C.size_t(4*n), C.hipMemcpyDeviceToDevice, s)
	alpha := C.float(2)
	C.blas_sscal(h, C.int(n), &alpha, (*C.float)(dst), 1)
}

// ScalCamelCase is ScalOnCopyStream with a cuBLAS-style set-stream name.
func ScalCamelCase(h C.blas_handle, s C.hipStream_t, dst, src unsafe.Pointer, n int) { // want ScalCamelCase:`copiesInto\(hipMemcpyAsync dst=p2 stream=p1\) deviceReads\(p0 on p1; p2 on p1\)`
	C.blasSetStream(h, s)
	C.hipMemcpyAsync(dst, src, C.size_t(4*n), C.hipMemcpyDeviceToDevice, s)
	alpha := C.float(2)
	C.blas_sscal(h, C.int(n), &alpha, (*C.float)(dst), 1)
}

// ScalUnbound: the handle's stream is not known here, and it is not the
// copy's.
func ScalUnbound(h C.blas_handle, s C.hipStream_t, dst, src unsafe.Pointer, n int) { // want ScalUnbound:`copiesInto\(hipMemcpyAsync dst=p2 stream=p1\) deviceReads\(p0 on unknown; p2 on unknown\)`
	C.hipMemcpyAsync(dst, src, C.size_t(4*n), C.hipMemcpyDeviceToDevice, s)
	alpha := C.float(2)
	C.blas_sscal(h, C.int(n), &alpha, (*C.float)(dst), 1) // want `C.blas_sscal reads dst on a different stream than the copy's`
}

// ScalOnNonBlocking binds the handle to a new non-blocking stream, which
// does not wait for the null stream's device-to-device copy.
func ScalOnNonBlocking(h C.blas_handle, dst, src unsafe.Pointer, n int) { // want ScalOnNonBlocking:`copiesInto\(hipMemcpy dst=p1\) deviceReads\(p0 on nonblocking; p1 on nonblocking\)`
	var s C.hipStream_t
	C.hipStreamCreateWithFlags(&s, C.hipStreamNonBlocking)
	C.blas_set_stream(h, s)
	C.hipMemcpy(dst, src, C.size_t(4*n), C.hipMemcpyDeviceToDevice)
	alpha := C.float(2)
	C.blas_sscal(h, C.int(n), &alpha, (*C.float)(dst), 1) // want `C.blas_sscal reads dst on a non-blocking stream`
}

// ScalRebound binds the handle to the copy's stream only after the routine.
func ScalRebound(h C.blas_handle, s, other C.hipStream_t, dst, src unsafe.Pointer, n int) { // want ScalRebound:`copiesInto\(hipMemcpyAsync dst=p3 stream=p1\) deviceReads\(p0 on p2; p3 on p2\)`
	C.blas_set_stream(h, other)
	C.hipMemcpyAsync(dst, src, C.size_t(4*n), C.hipMemcpyDeviceToDevice, s)
	alpha := C.float(2)
	C.blas_sscal(h, C.int(n), &alpha, (*C.float)(dst), 1) // want `C.blas_sscal reads dst on a different stream than the copy's`
	C.blas_set_stream(h, s)
}

// BLAS keeps a handle bound, in its constructor, to a stream of its own: its
// routines run on b.stream in every method.
type BLAS struct {
	h      C.blas_handle
	stream C.hipStream_t // want stream:"nonBlockingStream"
}

// NewBLAS creates the stream and binds the handle to it.
func NewBLAS(h C.blas_handle) *BLAS {
	b := &BLAS{h: h}
	C.hipStreamCreateWithFlags(&b.stream, C.hipStreamNonBlocking)
	C.blas_set_stream(b.h, b.stream)
	return b
}

// Scal copies on the handle's stream, then scales there: ordered.
func (b *BLAS) Scal(dst, src unsafe.Pointer, n int) { // want Scal:`synchronizes\(r.stream\) deviceReads\(p0 on r.stream; r.h on r.stream\)`
	C.hipMemcpyAsync(dst, src, C.size_t(4*n), C.hipMemcpyDeviceToDevice, b.stream)
	alpha := C.float(2)
	C.blas_sscal(b.h, C.int(n), &alpha, (*C.float)(dst), 1)
	C.hipStreamSynchronize(b.stream)
}

// ScalAfterNull copies on the null stream, then scales on the handle's
// non-blocking stream, which does not wait for it.
func (b *BLAS) ScalAfterNull(dst, src unsafe.Pointer, n int) { // want ScalAfterNull:`copiesInto\(hipMemcpy dst=p0\) synchronizes\(r.stream\) deviceReads\(p0 on r.stream; r.h on r.stream\)`
	C.hipMemcpy(dst, src, C.size_t(4*n), C.hipMemcpyDeviceToDevice)
	alpha := C.float(2)
	C.blas_sscal(b.h, C.int(n), &alpha, (*C.float)(dst), 1) // want `C.blas_sscal reads dst on a non-blocking stream`
	C.hipStreamSynchronize(b.stream)
}

// Mixed binds its handle to two different fields in two functions: which
// stream its routines run on is not known, and a routine after a copy on
// one of them is not taken as ordered.
type Mixed struct {
	h        C.blas_handle
	one, two C.hipStream_t
}

func (m *Mixed) UseOne() { C.blas_set_stream(m.h, m.one) }

func (m *Mixed) UseTwo() { C.blas_set_stream(m.h, m.two) }

// Scal copies on m.one, then scales on a stream not known to be m.one.
func (m *Mixed) Scal(dst, src unsafe.Pointer, n int) { // want Scal:`synchronizes\(r.one\) deviceReads\(p0 on unknown; r.h on unknown\)`
	C.hipMemcpyAsync(dst, src, C.size_t(4*n), C.hipMemcpyDeviceToDevice, m.one)
	alpha := C.float(2)
	C.blas_sscal(m.h, C.int(n), &alpha, (*C.float)(dst), 1) // want `C.blas_sscal reads dst on a different stream than the copy's`
	C.hipStreamSynchronize(m.one)
}
