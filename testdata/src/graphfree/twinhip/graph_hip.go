// Package gpu is the HIP half of a twin-file wrapper: graph_hip.go and
// graph_cuda.go (in twincuda here, since analysistest sees only the default
// build context) implement the same Go API, with prototypes declared by hand.
package gpu

/*
#include <stddef.h>
typedef int hipError_t;
typedef struct ihipGraph* hipGraph_t;
typedef struct hipGraphNode* hipGraphNode_t;
typedef struct hipMemAllocNodeParams {
	size_t bytesize;
	void* dptr;
} hipMemAllocNodeParams;
hipError_t hipMalloc(void** ptr, size_t size);
hipError_t hipFree(void* ptr);
hipError_t hipGraphAddMemAllocNode(hipGraphNode_t* node, hipGraph_t graph, const hipGraphNode_t* deps,
	size_t ndeps, hipMemAllocNodeParams* params);
hipError_t hipGraphAddMemFreeNode(hipGraphNode_t* node, hipGraph_t graph, const hipGraphNode_t* deps,
	size_t ndeps, void* ptr);
*/
import "C"

import (
	"fmt"
	"unsafe"
)

func check(r C.hipError_t) error {
	if r != 0 {
		return fmt.Errorf("hip error %d", int(r))
	}
	return nil
}

// Ptr is a device address.
type Ptr uintptr

// Malloc allocates device memory.
func Malloc(size int) (Ptr, error) { // want Malloc:"returnsMemory\\[0=device:hipMalloc\\]"
	var p unsafe.Pointer
	if err := check(C.hipMalloc(&p, C.size_t(size))); err != nil {
		return 0, err
	}
	return Ptr(uintptr(p)), nil
}

// Graph is a graph under construction.
type Graph struct {
	g    C.hipGraph_t
	last C.hipGraphNode_t
}

// Alloc adds an alloc node; the graph owns the memory.
func (g *Graph) Alloc(size int) (Ptr, error) { // want Alloc:"returnsMemory\\[0=graph:hipGraphAddMemAllocNode\\]"
	params := C.hipMemAllocNodeParams{bytesize: C.size_t(size)}
	if err := check(C.hipGraphAddMemAllocNode(&g.last, g.g, nil, 0, &params)); err != nil {
		return 0, err
	}
	return Ptr(uintptr(params.dptr)), nil
}

// Free adds a free node for p after the last node.
func (g *Graph) Free(p Ptr) error { // want Free:"freesParam\\[0\\]"
	var node C.hipGraphNode_t
	if err := check(C.hipGraphAddMemFreeNode(&node, g.g, &g.last, 1, unsafe.Pointer(uintptr(p)))); err != nil {
		return err
	}
	g.last = node
	return nil
}
