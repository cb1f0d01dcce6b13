// Package graphs imports a package that no module provides (a GOPATH-era
// dependency, a module not yet fetched): go list runs no cgo step for it,
// yet its C types do not depend on that import. hiplint sets the import
// aside for cgo to run and analyzes the package with the runtime's C
// types; the code that uses the import is analyzed as with any import not
// found. The graph hazard needs the C types (the alloc node's parameters).
package graphs

// #include <hip/hip_runtime_api.h>
import "C"

import "github.com/hiplint-absent/memalloc"

// FreeTwice frees a graph allocation with two free nodes.
func FreeTwice(g C.hipGraph_t) {
	var params C.hipMemAllocNodeParams
	params.bytesize = 64
	var alloc, free1, free2 C.hipGraphNode_t
	C.hipGraphAddMemAllocNode(&alloc, g, nil, 0, &params)
	p := params.dptr
	C.hipGraphAddMemFreeNode(&free1, g, &alloc, 1, p)
	C.hipGraphAddMemFreeNode(&free2, g, &free1, 1, p) // hazard: HL3004
}

// FreeOnce is the safe twin.
func FreeOnce(g C.hipGraph_t) {
	var params C.hipMemAllocNodeParams
	params.bytesize = 64
	var alloc, free C.hipGraphNode_t
	C.hipGraphAddMemAllocNode(&alloc, g, nil, 0, &params)
	C.hipGraphAddMemFreeNode(&free, g, &alloc, 1, params.dptr)
}

// Pool sizes a pool with the missing package.
func Pool(n int) int { return memalloc.Round(n) }
