// Package cudatwins checks the CUDA driver twins of the graph-free rules.
package cudatwins

// #cgo CFLAGS: -I${SRCDIR}/../../../include
// #include <cuda.h>
import "C"

import "unsafe"

func memAlloc(g C.CUgraph) {
	var d C.CUdeviceptr
	C.cuMemAlloc(&d, 64)
	var free C.CUgraphNode
	C.cuGraphAddMemFreeNode(&free, g, nil, 0, d) // want `cuGraphAddMemFreeNode frees d, which is device memory from cuMemAlloc, not a graph allocation: .*cuGraphAddMemAllocNode.*CUDA_ERROR_INVALID_VALUE.*free it with cuMemFree`
}

func managed(g C.CUgraph) {
	var d C.CUdeviceptr
	C.cuMemAllocManaged(&d, 64, C.CU_MEM_ATTACH_GLOBAL)
	var free C.CUgraphNode
	C.cuGraphAddMemFreeNode(&free, g, nil, 0, d) // want `managed memory from cuMemAllocManaged`
}

func asyncOutsideCapture(g C.CUgraph, s C.CUstream) {
	var d C.CUdeviceptr
	C.cuMemAllocAsync(&d, 64, s)
	var free C.CUgraphNode
	C.cuGraphAddMemFreeNode(&free, g, nil, 0, d) // want `which cuMemAllocAsync allocated outside stream capture: .*free it with cuMemFreeAsync`
}

// Silent: under capture.
func asyncInCapture(s C.CUstream) {
	var g C.CUgraph
	C.cuStreamBeginCapture(s, C.CU_STREAM_CAPTURE_MODE_GLOBAL)
	var d C.CUdeviceptr
	C.cuMemAllocAsync(&d, 64, s)
	C.cuStreamEndCapture(s, &g)
	var free C.CUgraphNode
	C.cuGraphAddMemFreeNode(&free, g, nil, 0, d)
}

func memsetNotWaitedFor(g C.CUgraph, ctx C.CUcontext) {
	var params C.CUDA_MEM_ALLOC_NODE_PARAMS
	params.bytesize = 64
	var alloc, set, free C.CUgraphNode
	C.cuGraphAddMemAllocNode(&alloc, g, nil, 0, &params)
	mp := C.CUDA_MEMSET_NODE_PARAMS{dst: params.dptr, elementSize: 1, width: 64, height: 1}
	C.cuGraphAddMemsetNode(&set, g, &alloc, 1, &mp, ctx)
	C.cuGraphAddMemFreeNode(&free, g, &alloc, 1, params.dptr) // want `does not depend on the memset node \(cuGraphAddMemsetNode\)`
}

// Silent: the kernel (driver API, CUdeviceptr argument) precedes the free.
func kernelWaitedFor(g C.CUgraph, f C.CUfunction) {
	var params C.CUDA_MEM_ALLOC_NODE_PARAMS
	params.bytesize = 64
	var alloc, kernel, free C.CUgraphNode
	C.cuGraphAddMemAllocNode(&alloc, g, nil, 0, &params)
	d := params.dptr
	args := []unsafe.Pointer{unsafe.Pointer(&d)}
	kp := C.CUDA_KERNEL_NODE_PARAMS{_func: f, gridDimX: 1, gridDimY: 1, gridDimZ: 1, blockDimX: 64, blockDimY: 1, blockDimZ: 1}
	kp.kernelParams = &args[0]
	C.cuGraphAddKernelNode(&kernel, g, &alloc, 1, &kp)
	deps := []C.CUgraphNode{kernel}
	C.cuGraphAddMemFreeNode(&free, g, unsafe.SliceData(deps), C.size_t(len(deps)), d)
}

func kernelNotWaitedFor(g C.CUgraph, f C.CUfunction) {
	var params C.CUDA_MEM_ALLOC_NODE_PARAMS
	params.bytesize = 64
	var alloc, kernel, free C.CUgraphNode
	C.cuGraphAddMemAllocNode(&alloc, g, nil, 0, &params)
	d := params.dptr
	args := []unsafe.Pointer{unsafe.Pointer(&d)}
	kp := C.CUDA_KERNEL_NODE_PARAMS{_func: f, kernelParams: &args[0]}
	C.cuGraphAddKernelNode(&kernel, g, &alloc, 1, &kp)
	C.cuGraphAddMemFreeNode(&free, g, &alloc, 1, d) // want `does not depend on the kernel node \(cuGraphAddKernelNode\)`
}

func freeNodeThenFreeAsync(g C.CUgraph, s C.CUstream) {
	var params C.CUDA_MEM_ALLOC_NODE_PARAMS
	params.bytesize = 64
	var alloc, free C.CUgraphNode
	C.cuGraphAddMemAllocNode(&alloc, g, nil, 0, &params)
	C.cuGraphAddMemFreeNode(&free, g, &alloc, 1, params.dptr)
	C.cuMemFreeAsync(params.dptr, s) // want `cuMemFreeAsync frees params.dptr, which cuGraphAddMemFreeNode already freed`
}
