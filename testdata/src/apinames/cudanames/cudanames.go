// Package cudanames uses, through cgo, names of the CUDA runtime and driver
// APIs that hiplint's declarations lacked before issue 30 (the include guard
// __CUDA_RUNTIME_H__, CU_JIT_NUM_OPTIONS,
// CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_MEM_OPS, make_cudaExtent): with them the
// package keeps its C types, and the copy hazard below, which needs the
// value of cudaMemcpyDeviceToDevice, is found.
package cudanames

/*
#include <cuda.h>
#include <cuda_runtime.h>
#ifndef __CUDA_RUNTIME_H__
#error "cuda_runtime.h is not included"
#endif
*/
import "C"

import "unsafe"

// NumJitOptions sizes a JIT option array.
const NumJitOptions = C.CU_JIT_NUM_OPTIONS

// StreamMemOps is the CUDA 11 attribute asking for stream memory operations.
const StreamMemOps = C.CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_MEM_OPS

// Extent builds a 3D extent.
func Extent(w, h, d C.size_t) C.struct_cudaExtent { return C.make_cudaExtent(w, h, d) }

// ReadBack copies a device buffer to another and reads the copy back on a
// non-blocking stream, which does not wait for the device-to-device copy.
func ReadBack(host []byte, n C.size_t) {
	var src, dst unsafe.Pointer
	var s C.cudaStream_t
	C.cudaMalloc(&src, n)
	C.cudaMalloc(&dst, n)
	C.cudaStreamCreateWithFlags(&s, C.cudaStreamNonBlocking)
	C.cudaMemcpy(dst, src, n, C.cudaMemcpyDeviceToDevice)
	C.cudaMemcpyAsync(unsafe.Pointer(&host[0]), dst, n, C.cudaMemcpyDeviceToHost, s) // hazard: HL1001
	C.cudaStreamSynchronize(s)
}
