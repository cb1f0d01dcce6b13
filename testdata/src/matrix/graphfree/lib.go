// Package graphfree is the graph-free column of the construct matrix
// (docs/coverage.md): each construct's hazard and its safe twin.
package graphfree

// #cgo CFLAGS: -I${SRCDIR}/../../../include
// #include <hip/hip_runtime_api.h>
import "C"

import (
	"fmt"
	"unsafe"
)

const n = 1 << 20

type node = C.hipGraphNode_t

// Graph builds a HIP graph.
type Graph struct{ g C.hipGraph_t }

func check(r C.hipError_t) error {
	if r != C.hipSuccess {
		return fmt.Errorf("hip error %d", int(r))
	}
	return nil
}

// Alloc adds an allocation node and returns it with the memory it allocates.
func (gr *Graph) Alloc(size int) (node, unsafe.Pointer, error) { // want Alloc:"returnsMemory\\[1=graph:hipGraphAddMemAllocNode\\]"
	params := C.hipMemAllocNodeParams{bytesize: C.size_t(size)}
	var a node
	if err := check(C.hipGraphAddMemAllocNode(&a, gr.g, nil, 0, &params)); err != nil {
		return nil, nil, err
	}
	return a, params.dptr, nil
}

// Free adds a free node for p after dep.
func (gr *Graph) Free(dep node, p unsafe.Pointer) (node, error) { // want Free:"freesParam\\[1\\]"
	var f node
	err := check(C.hipGraphAddMemFreeNode(&f, gr.g, &dep, 1, p))
	return f, err
}

// deviceAlloc allocates device memory outside any graph.
func deviceAlloc() unsafe.Pointer { // want deviceAlloc:"returnsMemory\\[0=device:hipMalloc\\]"
	var p unsafe.Pointer
	C.hipMalloc(&p, n)
	return p
}

// deviceFree frees device memory from deviceAlloc.
func deviceFree(p unsafe.Pointer) { // want deviceFree:"freesParam\\[host:0\\]"
	C.hipFree(p)
}
