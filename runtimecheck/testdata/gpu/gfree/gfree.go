// Package gfree adds graph memory-free nodes through a wrapper method,
// graph.freeNode. FreeManaged hands it managed memory (HL3001 at the call of
// the wrapper); FreeAllocated hands it the address of the graph's own
// allocation node, after that node.
package gfree

/*
#include <hip/hip_runtime_api.h>
*/
import "C"

import (
	"fmt"
	"unsafe"
)

type graph struct{ g C.hipGraph_t }

func newGraph() *graph {
	C.hipSetDevice(0)
	gr := &graph{}
	C.hipGraphCreate(&gr.g, 0)
	return gr
}

func (gr *graph) destroy() { C.hipGraphDestroy(gr.g) }

func status(op string, r C.hipError_t) error {
	if r != C.hipSuccess {
		return fmt.Errorf("%s: error %d", op, int(r))
	}
	return nil
}

// allocNode adds a graph allocation of n bytes on device 0.
func (gr *graph) allocNode(n int) (C.hipGraphNode_t, unsafe.Pointer, error) {
	var params C.hipMemAllocNodeParams
	params.poolProps.allocType = C.hipMemAllocationTypePinned
	params.poolProps.location._type = C.hipMemLocationTypeDevice
	params.poolProps.location.id = 0
	params.bytesize = C.size_t(n)
	var node C.hipGraphNode_t
	err := status("hipGraphAddMemAllocNode", C.hipGraphAddMemAllocNode(&node, gr.g, nil, 0, &params))
	return node, params.dptr, err
}

// freeNode adds a node freeing p after the nodes in after.
func (gr *graph) freeNode(p unsafe.Pointer, after ...C.hipGraphNode_t) error {
	var node C.hipGraphNode_t
	var deps *C.hipGraphNode_t
	if len(after) > 0 {
		deps = &after[0]
	}
	return status("hipGraphAddMemFreeNode", C.hipGraphAddMemFreeNode(&node, gr.g, deps, C.size_t(len(after)), p))
}

// FreeManaged frees managed memory with a graph free node.
func FreeManaged() error {
	var p unsafe.Pointer
	C.hipSetDevice(0)
	C.hipMallocManaged(&p, 1<<20, C.hipMemAttachGlobal)
	defer C.hipFree(p)
	gr := newGraph()
	defer gr.destroy()
	return gr.freeNode(p)
}

// FreeAllocated frees the graph's own allocation.
func FreeAllocated() error {
	gr := newGraph()
	defer gr.destroy()
	node, dptr, err := gr.allocNode(1 << 20)
	if err != nil {
		return err
	}
	return gr.freeNode(dptr, node)
}
