// Package cudart checks the CUDA runtime twins of the graph-free rules.
package cudart

// #cgo CFLAGS: -I${SRCDIR}/../../../include
// #include <cuda_runtime_api.h>
import "C"

import "unsafe"

func plainMalloc(g C.cudaGraph_t) {
	var p unsafe.Pointer
	C.cudaMalloc(&p, 64)
	var free C.cudaGraphNode_t
	C.cudaGraphAddMemFreeNode(&free, g, nil, 0, p) // want `cudaGraphAddMemFreeNode frees p, which is device memory from cudaMalloc, not a graph allocation: a free node accepts only params.dptr of cudaGraphAddMemAllocNode or memory allocated by cudaMallocAsync during stream capture, and the runtime returns cudaErrorInvalidValue .*; free it with cudaFree`
}

func hostMalloc(g C.cudaGraph_t) {
	var p unsafe.Pointer
	C.cudaMallocHost(&p, 64)
	var free C.cudaGraphNode_t
	C.cudaGraphAddMemFreeNode(&free, g, nil, 0, p) // want `pinned host memory from cudaMallocHost.*free it with cudaFreeHost`
}

func asyncOutsideCapture(g C.cudaGraph_t, s C.cudaStream_t) {
	var p unsafe.Pointer
	C.cudaMallocAsync(&p, 64, s)
	var free C.cudaGraphNode_t
	C.cudaGraphAddMemFreeNode(&free, g, nil, 0, p) // want `which cudaMallocAsync allocated outside stream capture: .* cudaErrorInvalidValue; free it with cudaFreeAsync on a stream, or allocate it with cudaGraphAddMemAllocNode`
}

// Silent: captured, then freed by a node of the captured graph.
func asyncInCapture(s C.cudaStream_t) {
	var g C.cudaGraph_t
	C.cudaStreamBeginCapture(s, C.cudaStreamCaptureModeGlobal)
	var p unsafe.Pointer
	C.cudaMallocAsync(&p, 64, s)
	C.cudaStreamEndCapture(s, &g)
	var free C.cudaGraphNode_t
	C.cudaGraphAddMemFreeNode(&free, g, nil, 0, p)
}

func kernelNotWaitedFor(g C.cudaGraph_t, fn unsafe.Pointer) {
	var params C.struct_cudaMemAllocNodeParams
	params.bytesize = 64
	var alloc, kernel, free C.cudaGraphNode_t
	C.cudaGraphAddMemAllocNode(&alloc, g, nil, 0, &params)
	args := []unsafe.Pointer{unsafe.Pointer(&params.dptr)}
	kp := C.struct_cudaKernelNodeParams{_func: fn, kernelParams: &args[0]}
	C.cudaGraphAddKernelNode(&kernel, g, &alloc, 1, &kp)
	C.cudaGraphAddMemFreeNode(&free, g, &alloc, 1, params.dptr) // want `free node for params.dptr does not depend on the kernel node \(cudaGraphAddKernelNode\)`
}

// Silent: the free waits for the kernel.
func kernelWaitedFor(g C.cudaGraph_t, fn unsafe.Pointer) {
	var params C.struct_cudaMemAllocNodeParams
	params.bytesize = 64
	var alloc, kernel, free C.cudaGraphNode_t
	C.cudaGraphAddMemAllocNode(&alloc, g, nil, 0, &params)
	args := []unsafe.Pointer{unsafe.Pointer(&params.dptr)}
	kp := C.struct_cudaKernelNodeParams{_func: fn, kernelParams: &args[0]}
	C.cudaGraphAddKernelNode(&kernel, g, &alloc, 1, &kp)
	C.cudaGraphAddMemFreeNode(&free, g, &kernel, 1, params.dptr)
}

func freeNodeAndFreeAsync(g C.cudaGraph_t, s C.cudaStream_t) {
	var params C.struct_cudaMemAllocNodeParams
	params.bytesize = 64
	var alloc, free C.cudaGraphNode_t
	C.cudaGraphAddMemAllocNode(&alloc, g, nil, 0, &params)
	C.cudaGraphAddMemFreeNode(&free, g, &alloc, 1, params.dptr)
	C.cudaFreeAsync(params.dptr, s) // want `cudaFreeAsync frees params.dptr, which cudaGraphAddMemFreeNode already freed: .* cudaErrorInvalidValue`
}
