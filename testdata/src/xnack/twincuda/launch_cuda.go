// Package gpu is the CUDA half of a twin-file wrapper: launch_cuda.go and
// launch_hip.go (in twinhip here, since analysistest sees only the default
// build context) implement the same Go API, with prototypes declared by hand.
// NVIDIA has no XNACK: system memory needs cudaDevAttrPageableMemoryAccess,
// and managed memory migrates without it.
package gpu

/*
#include <stddef.h>
#include <stdlib.h>
typedef int cudaError_t;
typedef struct CUstream_st* cudaStream_t;
typedef struct dim3 { unsigned int x, y, z; } dim3;
#define ATTACH_GLOBAL 1
#define ATTR_PAGEABLE 88
cudaError_t cudaMallocManaged(void** ptr, size_t size, unsigned int flags);
cudaError_t cudaDeviceGetAttribute(int* value, int attr, int device);
cudaError_t cudaLaunchKernel(const void* func, dim3 grid, dim3 block, void** args, size_t shared, cudaStream_t stream);
*/
import "C"

import (
	"fmt"
	"unsafe"
)

var kernel unsafe.Pointer

func check(r C.cudaError_t) error {
	if r != 0 {
		return fmt.Errorf("cuda error %d", int(r))
	}
	return nil
}

// LaunchHost passes C.malloc memory to a kernel.
func LaunchHost(size int) error { // want LaunchHost:"needsXNACK\\(system\\)"
	buf := C.malloc(C.size_t(size))
	defer C.free(buf)
	args := []unsafe.Pointer{unsafe.Pointer(&buf)}
	return check(C.cudaLaunchKernel(kernel, C.dim3{x: 1, y: 1, z: 1}, C.dim3{x: 64, y: 1, z: 1}, &args[0], 0, nil))
}

// NewManaged allocates managed memory: it migrates on NVIDIA.
func NewManaged(size int) (unsafe.Pointer, error) {
	var p unsafe.Pointer
	err := check(C.cudaMallocManaged(&p, C.size_t(size), C.ATTACH_GLOBAL))
	return p, err
}

// PageableAccess reports whether kernels may touch pageable memory.
func PageableAccess() bool { // want PageableAccess:"reportsXNACK\\(result=0\\)"
	var v C.int
	if err := check(C.cudaDeviceGetAttribute(&v, C.ATTR_PAGEABLE, 0)); err != nil {
		return false
	}
	return v == 1
}
