package preamblefn

/*
#include <hip/hip_runtime_api.h>
#include <cublas_v2.h>

const cublasPointerMode_t goPointerModeHost = CUBLAS_POINTER_MODE_HOST;
*/
import "C"

import (
	"errors"
	"unsafe"
)

// Handle is a cuBLAS handle bound to a stream.
type Handle struct {
	h      C.cublasHandle_t
	stream C.hipStream_t
}

// New creates a handle in host pointer mode, bound to a new stream.
func New() (*Handle, error) {
	h := &Handle{}
	if err := newError(C.cublasCreate(&h.h)); err != nil {
		return nil, err
	}
	if err := newError(C.cublasSetPointerMode(h.h, C.goPointerModeHost)); err != nil {
		return nil, err
	}
	if C.hipStreamCreate(&h.stream) != C.hipSuccess {
		return nil, errors.New("hipStreamCreate failed")
	}
	C.cublasSetStream(h.h, h.stream)
	return h, nil
}

// Scale copies src to dst on the handle's stream, scales work with cuBLAS
// and reads dst on the host before the stream is synchronized. At tier 3
// this function is opaque (a Go pointer handed to a C function that is not
// the runtime's), so the finding needs the C types.
func (h *Handle) Scale(dst, src, work unsafe.Pointer, n int, alpha float32) float32 {
	C.hipMemcpyAsync(dst, src, C.size_t(4*n), C.hipMemcpyDeviceToDevice, h.stream)
	C.cublasSscal(h.h, C.int(n), (*C.float)(unsafe.Pointer(&alpha)), (*C.float)(work), 1)
	return *(*float32)(dst) // hazard: HL1002
}

// ScaleSynced is the safe twin.
func (h *Handle) ScaleSynced(dst, src, work unsafe.Pointer, n int, alpha float32) float32 {
	C.hipMemcpyAsync(dst, src, C.size_t(4*n), C.hipMemcpyDeviceToDevice, h.stream)
	C.cublasSscal(h.h, C.int(n), (*C.float)(unsafe.Pointer(&alpha)), (*C.float)(work), 1)
	C.hipStreamSynchronize(h.stream)
	return *(*float32)(dst)
}

// Close destroys the handle and its stream.
func (h *Handle) Close() {
	C.cublasDestroy(h.h)
	C.hipStreamDestroy(h.stream)
}
