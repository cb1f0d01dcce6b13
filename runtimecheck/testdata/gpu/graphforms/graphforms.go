// Package graphforms adds graph memory-free nodes through the call forms of
// the construct matrix (docs/coverage.md): a method value, a method
// expression, a method promoted through an embedded field, an interface, a
// function in a struct field, a generic function and a select branch. Each
// hazard frees hipMalloc memory, which is not a graph allocation (HL3001);
// each twin frees the address its graph's allocation node returned.
package graphforms

/*
#include <hip/hip_runtime_api.h>
*/
import "C"

import (
	"fmt"
	"unsafe"
)

type node = C.hipGraphNode_t

func check(op string, r C.hipError_t) error {
	if r != C.hipSuccess {
		return fmt.Errorf("%s: error %d", op, int(r))
	}
	return nil
}

// Graph is a graph under construction.
type Graph struct{ g C.hipGraph_t }

// NewGraph creates an empty graph on device 0.
func NewGraph() *Graph {
	C.hipSetDevice(0)
	gr := &Graph{}
	C.hipGraphCreate(&gr.g, 0)
	return gr
}

// Destroy destroys the graph.
func (gr *Graph) Destroy() { C.hipGraphDestroy(gr.g) }

// Alloc adds an allocation node of size bytes.
func (gr *Graph) Alloc(size int) (node, unsafe.Pointer, error) {
	var params C.hipMemAllocNodeParams
	params.poolProps.allocType = C.hipMemAllocationTypePinned
	params.poolProps.location._type = C.hipMemLocationTypeDevice
	params.poolProps.location.id = 0
	params.bytesize = C.size_t(size)
	var a node
	err := check("hipGraphAddMemAllocNode", C.hipGraphAddMemAllocNode(&a, gr.g, nil, 0, &params))
	return a, params.dptr, err
}

// Free adds a free node for p after dep (none when dep is nil).
func (gr *Graph) Free(dep node, p unsafe.Pointer) (node, error) {
	var f node
	var deps *node
	var n C.size_t
	if dep != nil {
		deps, n = &dep, 1
	}
	return f, check("hipGraphAddMemFreeNode", C.hipGraphAddMemFreeNode(&f, gr.g, deps, n, p))
}

// deviceAlloc allocates device memory that no graph owns.
func deviceAlloc() unsafe.Pointer {
	var p unsafe.Pointer
	C.hipMalloc(&p, 1<<20)
	return p
}

const size = 1 << 20

// MethodValueDevice frees device memory through a method value.
func MethodValueDevice() error {
	gr := NewGraph()
	defer gr.Destroy()
	free := gr.Free
	_, err := free(nil, deviceAlloc())
	return err
}

// MethodValueGraph frees the graph's allocation through a method value.
func MethodValueGraph() error {
	gr := NewGraph()
	defer gr.Destroy()
	a, p, err := gr.Alloc(size)
	if err != nil {
		return err
	}
	free := gr.Free
	_, err = free(a, p)
	return err
}

// MethodExprDevice frees device memory through a method expression.
func MethodExprDevice() error {
	gr := NewGraph()
	defer gr.Destroy()
	_, err := (*Graph).Free(gr, nil, deviceAlloc())
	return err
}

// MethodExprGraph frees the graph's allocation through a method expression.
func MethodExprGraph() error {
	gr := NewGraph()
	defer gr.Destroy()
	a, p, err := gr.Alloc(size)
	if err != nil {
		return err
	}
	_, err = (*Graph).Free(gr, a, p)
	return err
}

// Builder embeds its graph by pointer: Alloc and Free are promoted.
type Builder struct {
	*Graph
	name string
}

// PromotedDevice frees device memory through the promoted Free.
func PromotedDevice() error {
	b := Builder{Graph: NewGraph(), name: "step"}
	defer b.Destroy()
	_, err := b.Free(nil, deviceAlloc())
	return err
}

// PromotedGraph frees the graph's allocation through the promoted Free.
func PromotedGraph() error {
	b := Builder{Graph: NewGraph(), name: "step"}
	defer b.Destroy()
	a, p, err := b.Alloc(size)
	if err != nil {
		return err
	}
	_, err = b.Free(a, p)
	return err
}

// Freer adds free nodes.
type Freer interface {
	Free(dep node, p unsafe.Pointer) (node, error)
}

// InterfaceDevice frees device memory through an interface.
func InterfaceDevice() error {
	gr := NewGraph()
	defer gr.Destroy()
	var f Freer = gr
	_, err := f.Free(nil, deviceAlloc())
	return err
}

// InterfaceGraph frees the graph's allocation through an interface.
func InterfaceGraph() error {
	gr := NewGraph()
	defer gr.Destroy()
	a, p, err := gr.Alloc(size)
	if err != nil {
		return err
	}
	var f Freer = gr
	_, err = f.Free(a, p)
	return err
}

// freeOn adds a free node for p to gr.
func freeOn[G interface {
	Free(node, unsafe.Pointer) (node, error)
}](gr G, dep node, p unsafe.Pointer) error {
	_, err := gr.Free(dep, p)
	return err
}

// GenericDevice frees device memory through a generic function.
func GenericDevice() error {
	gr := NewGraph()
	defer gr.Destroy()
	return freeOn(gr, nil, deviceAlloc())
}

// GenericGraph frees the graph's allocation through a generic function.
func GenericGraph() error {
	gr := NewGraph()
	defer gr.Destroy()
	a, p, err := gr.Alloc(size)
	if err != nil {
		return err
	}
	return freeOn(gr, a, p)
}

// SelectDevice frees device memory in the branch a ready channel picks.
func SelectDevice() error {
	gr := NewGraph()
	defer gr.Destroy()
	p := deviceAlloc()
	ready, quit := make(chan struct{}, 1), make(chan struct{})
	ready <- struct{}{}
	select {
	case <-ready:
		_, err := gr.Free(nil, p)
		return err
	case <-quit:
		return nil
	}
}

// SelectGraph frees the graph's allocation in the branch a ready channel picks.
func SelectGraph() error {
	gr := NewGraph()
	defer gr.Destroy()
	a, p, err := gr.Alloc(size)
	if err != nil {
		return err
	}
	ready, quit := make(chan struct{}, 1), make(chan struct{})
	ready <- struct{}{}
	select {
	case <-ready:
		_, err := gr.Free(a, p)
		return err
	case <-quit:
		return nil
	}
}
