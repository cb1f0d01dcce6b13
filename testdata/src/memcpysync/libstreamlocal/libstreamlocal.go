// Package libstreamlocal is libstream's BLAS with the handle bound to its
// stream while both are locals of the constructor, stored into the fields
// afterwards (&BLAS{h: h, stream: s}): the fields are bound all the same
// (flow.Index.FieldPairs).
package libstreamlocal

// #cgo CFLAGS: -I${SRCDIR}/../../../include
// #include <hip/hip_runtime_api.h>
// typedef struct blas_ctx* blas_handle;
// static int blas_set_stream(blas_handle h, hipStream_t s) { (void)h; (void)s; return 0; }
// static int blas_sscal(blas_handle h, int n, const float* alpha, float* x, int inc) { (void)h; (void)n; (void)alpha; (void)x; (void)inc; return 0; }
import "C"

import "unsafe"

// BLAS keeps a handle bound to a stream of its own.
type BLAS struct {
	h      C.blas_handle
	stream C.hipStream_t
}

// NewBLAS creates the stream and binds the handle to it, in locals.
func NewBLAS(h C.blas_handle) *BLAS {
	var s C.hipStream_t
	C.hipStreamCreateWithFlags(&s, C.hipStreamNonBlocking)
	C.blas_set_stream(h, s)
	return &BLAS{h: h, stream: s}
}

// Scal copies on the handle's stream, then scales there: ordered.
func (b *BLAS) Scal(dst, src unsafe.Pointer, n int) { // want Scal:`synchronizes\(r.stream\) deviceReads\(p0 on r.stream; r.h on r.stream\)`
	C.hipMemcpyAsync(dst, src, C.size_t(4*n), C.hipMemcpyDeviceToDevice, b.stream)
	alpha := C.float(2)
	C.blas_sscal(b.h, C.int(n), &alpha, (*C.float)(dst), 1)
	C.hipStreamSynchronize(b.stream)
}

// ScalOther copies on another stream, then scales on the handle's: not
// ordered.
func (b *BLAS) ScalOther(other C.hipStream_t, dst, src unsafe.Pointer, n int) { // want ScalOther:`copiesInto\(hipMemcpyAsync dst=p1 stream=p0\) synchronizes\(r.stream\) deviceReads\(p1 on r.stream; r.h on r.stream\)`
	C.hipMemcpyAsync(dst, src, C.size_t(4*n), C.hipMemcpyDeviceToDevice, other)
	alpha := C.float(2)
	C.blas_sscal(b.h, C.int(n), &alpha, (*C.float)(dst), 1) // want `C.blas_sscal reads dst on a different stream than the copy's`
	C.hipStreamSynchronize(b.stream)
}
