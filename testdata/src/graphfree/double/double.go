// Package double frees graph allocations twice (HL3004), and once (silent).
package double

// #cgo CFLAGS: -I${SRCDIR}/../../../include
// #include <hip/hip_runtime_api.h>
import "C"

import "unsafe"

func twoFreeNodes(g C.hipGraph_t) {
	var params C.hipMemAllocNodeParams
	params.bytesize = 64
	var alloc, free1, free2 C.hipGraphNode_t
	C.hipGraphAddMemAllocNode(&alloc, g, nil, 0, &params)
	p := params.dptr
	C.hipGraphAddMemFreeNode(&free1, g, &alloc, 1, p)
	q := p
	C.hipGraphAddMemFreeNode(&free2, g, &free1, 1, q) // want `hipGraphAddMemFreeNode frees q, which hipGraphAddMemFreeNode already freed: a graph allocation is freed once`
}

func freeNodeThenHipFree(g C.hipGraph_t, exec C.hipGraphExec_t, s C.hipStream_t) {
	var params C.hipMemAllocNodeParams
	params.bytesize = 64
	var alloc, free C.hipGraphNode_t
	C.hipGraphAddMemAllocNode(&alloc, g, nil, 0, &params)
	C.hipGraphAddMemFreeNode(&free, g, &alloc, 1, params.dptr)
	C.hipGraphLaunch(exec, s)
	C.hipStreamSynchronize(s)
	C.hipFree(params.dptr) // want `hipFree frees params.dptr, which hipGraphAddMemFreeNode already freed`
}

// Captured allocation freed in the capture, then again by a free node.
func freeAsyncThenFreeNode(s C.hipStream_t) {
	var g C.hipGraph_t
	C.hipStreamBeginCapture(s, C.hipStreamCaptureModeGlobal)
	var p unsafe.Pointer
	C.hipMallocAsync(&p, 64, s)
	C.hipFreeAsync(p, s)
	C.hipStreamEndCapture(s, &g)
	var free C.hipGraphNode_t
	C.hipGraphAddMemFreeNode(&free, g, nil, 0, p) // want `hipGraphAddMemFreeNode frees p, which hipFreeAsync already freed`
}

// A free in a loop without a new allocation frees the same memory again.
func freeInLoop(g C.hipGraph_t, n int) {
	var params C.hipMemAllocNodeParams
	params.bytesize = 64
	var alloc C.hipGraphNode_t
	C.hipGraphAddMemAllocNode(&alloc, g, nil, 0, &params)
	for i := 0; i < n; i++ {
		var free C.hipGraphNode_t
		C.hipGraphAddMemFreeNode(&free, g, &alloc, 1, params.dptr) // want `frees params.dptr, which hipGraphAddMemFreeNode already freed`
	}
}

// Silent: each iteration allocates and frees its own memory.
func allocAndFreeInLoop(g C.hipGraph_t, n int) {
	for i := 0; i < n; i++ {
		var params C.hipMemAllocNodeParams
		params.bytesize = 64
		var alloc, free C.hipGraphNode_t
		C.hipGraphAddMemAllocNode(&alloc, g, nil, 0, &params)
		C.hipGraphAddMemFreeNode(&free, g, &alloc, 1, params.dptr)
	}
}

// Silent: a slice of graph allocations, each freed once.
func sliceFreedOnce(g C.hipGraph_t, n int) {
	ptrs := make([]unsafe.Pointer, n)
	nodes := make([]C.hipGraphNode_t, n)
	for i := range ptrs {
		var params C.hipMemAllocNodeParams
		params.bytesize = 64
		C.hipGraphAddMemAllocNode(&nodes[i], g, nil, 0, &params)
		ptrs[i] = params.dptr
	}
	for i, p := range ptrs {
		var free C.hipGraphNode_t
		C.hipGraphAddMemFreeNode(&free, g, &nodes[i], 1, p)
	}
}

// Silent: freed on one branch or the other, never both.
func eitherBranch(g C.hipGraph_t, s C.hipStream_t, inGraph bool) {
	var params C.hipMemAllocNodeParams
	params.bytesize = 64
	var alloc C.hipGraphNode_t
	C.hipGraphAddMemAllocNode(&alloc, g, nil, 0, &params)
	if inGraph {
		var free C.hipGraphNode_t
		C.hipGraphAddMemFreeNode(&free, g, &alloc, 1, params.dptr)
	} else {
		C.hipFreeAsync(params.dptr, s)
	}
}

// Silent: the graph does not free it; the program frees it after launch.
func freedOutsideGraph(g C.hipGraph_t, exec C.hipGraphExec_t, s C.hipStream_t) {
	var params C.hipMemAllocNodeParams
	params.bytesize = 64
	var alloc C.hipGraphNode_t
	C.hipGraphAddMemAllocNode(&alloc, g, nil, 0, &params)
	C.hipGraphLaunch(exec, s)
	C.hipFreeAsync(params.dptr, s)
}
