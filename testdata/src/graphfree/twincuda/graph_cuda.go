// Package gpu is the CUDA half of a twin-file wrapper: graph_cuda.go and
// graph_hip.go (in twinhip here, since analysistest sees only the default
// build context) implement the same Go API, with prototypes declared by hand.
package gpu

/*
#include <stddef.h>
typedef int cudaError_t;
typedef struct CUgraph_st* cudaGraph_t;
typedef struct CUgraphNode_st* cudaGraphNode_t;
typedef struct cudaMemAllocNodeParams {
	size_t bytesize;
	void* dptr;
} cudaMemAllocNodeParams;
cudaError_t cudaMalloc(void** ptr, size_t size);
cudaError_t cudaFree(void* ptr);
cudaError_t cudaGraphAddMemAllocNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* deps,
	size_t ndeps, cudaMemAllocNodeParams* params);
cudaError_t cudaGraphAddMemFreeNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* deps,
	size_t ndeps, void* ptr);
*/
import "C"

import (
	"fmt"
	"unsafe"
)

func check(r C.cudaError_t) error {
	if r != 0 {
		return fmt.Errorf("cuda error %d", int(r))
	}
	return nil
}

// Ptr is a device address.
type Ptr uintptr

// Malloc allocates device memory.
func Malloc(size int) (Ptr, error) { // want Malloc:"returnsMemory\\[0=device:cudaMalloc\\]"
	var p unsafe.Pointer
	if err := check(C.cudaMalloc(&p, C.size_t(size))); err != nil {
		return 0, err
	}
	return Ptr(uintptr(p)), nil
}

// Graph is a graph under construction.
type Graph struct {
	g    C.cudaGraph_t
	last C.cudaGraphNode_t
}

// Alloc adds an alloc node; the graph owns the memory.
func (g *Graph) Alloc(size int) (Ptr, error) { // want Alloc:"returnsMemory\\[0=graph:cudaGraphAddMemAllocNode\\]"
	params := C.cudaMemAllocNodeParams{bytesize: C.size_t(size)}
	if err := check(C.cudaGraphAddMemAllocNode(&g.last, g.g, nil, 0, &params)); err != nil {
		return 0, err
	}
	return Ptr(uintptr(params.dptr)), nil
}

// Free adds a free node for p after the last node.
func (g *Graph) Free(p Ptr) error { // want Free:"freesParam\\[0\\]"
	var node C.cudaGraphNode_t
	if err := check(C.cudaGraphAddMemFreeNode(&node, g.g, &g.last, 1, unsafe.Pointer(uintptr(p)))); err != nil {
		return err
	}
	g.last = node
	return nil
}
