// Package cudatwins checks the CUDA twins: NVIDIA has no XNACK, and
// cudaDevAttrPageableMemoryAccess (0 on an H200 without HMM) says whether
// kernels may touch system memory. Managed memory migrates on NVIDIA
// without any such switch, and HSA_XNACK means nothing to CUDA.
package cudatwins

// #cgo CFLAGS: -I${SRCDIR}/../../../include
// #include <cuda_runtime_api.h>
// #include <stdlib.h>
import "C"

import (
	"os"
	"unsafe"
)

var kernel unsafe.Pointer

// LaunchMalloc passes C.malloc memory to a CUDA kernel.
func LaunchMalloc(n int) { // want LaunchMalloc:"needsXNACK\\(system\\)"
	buf := C.malloc(C.size_t(n))
	defer C.free(buf)
	args := []unsafe.Pointer{unsafe.Pointer(&buf)}
	C.cudaLaunchKernel(kernel, C.dim3{x: 1, y: 1, z: 1}, C.dim3{x: 64, y: 1, z: 1}, &args[0], 0, nil)
}

// PrefetchGo prefetches Go memory.
func PrefetchGo(data []byte) { // want PrefetchGo:"needsXNACK\\(system\\)"
	buf := make([]byte, len(data))
	copy(buf, data)
	C.cudaMemPrefetchAsync(unsafe.Pointer(&buf[0]), C.size_t(len(buf)), 0, nil)
}

// GuardedPageable checks the NVIDIA analogue of XNACK.
func GuardedPageable(n int) {
	var v C.int
	C.cudaDeviceGetAttribute(&v, C.cudaDevAttrPageableMemoryAccess, 0)
	if v != 1 {
		return
	}
	LaunchMalloc(n)
}

// GuardedPageableProp checks the property twin.
func GuardedPageableProp(n int) {
	var prop C.struct_cudaDeviceProp
	C.cudaGetDeviceProperties(&prop, 0)
	if prop.pageableMemoryAccess == 1 {
		LaunchMalloc(n)
	}
}

// LaunchDevice passes cudaMalloc memory: silent.
func LaunchDevice(n int) {
	var d unsafe.Pointer
	C.cudaMalloc(&d, C.size_t(n))
	args := []unsafe.Pointer{unsafe.Pointer(&d)}
	C.cudaLaunchKernel(kernel, C.dim3{x: 1, y: 1, z: 1}, C.dim3{x: 64, y: 1, z: 1}, &args[0], 0, nil)
}

// ManagedPrefetch uses managed memory after the check NVIDIA documents for
// prefetching (ConcurrentManagedAccess): no XNACK involved, and the check is
// the right one there, so neither HL4002 nor HL4005.
func ManagedPrefetch(n int) {
	var p unsafe.Pointer
	C.cudaMallocManaged(&p, C.size_t(n), C.cudaMemAttachGlobal)
	var concurrent C.int
	C.cudaDeviceGetAttribute(&concurrent, C.cudaDevAttrConcurrentManagedAccess, 0)
	if concurrent == 1 {
		C.cudaMemPrefetchAsync(p, C.size_t(n), 0, nil)
	}
	args := []unsafe.Pointer{unsafe.Pointer(&p)}
	C.cudaLaunchKernel(kernel, C.dim3{x: 1, y: 1, z: 1}, C.dim3{x: 64, y: 1, z: 1}, &args[0], 0, nil)
}

// setenvAfterCUDA sets HSA_XNACK after CUDA calls: irrelevant, not "too late".
func setenvAfterCUDA() {
	var n C.int
	C.cudaGetDeviceCount(&n)
	os.Setenv("HSA_XNACK", "1")
}

func pageable() bool {
	var v C.int
	C.cudaDeviceGetAttribute(&v, C.cudaDevAttrPageableMemoryAccess, 0)
	return v >= 1
}
