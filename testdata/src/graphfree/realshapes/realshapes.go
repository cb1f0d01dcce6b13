// Package realshapes holds the graph-free shape of library-style code: a
// graph type that allocates into a field in one method and adds the free
// node in another.
package realshapes

// #cgo CFLAGS: -I${SRCDIR}/../../../include
// #include <hip/hip_runtime_api.h>
import "C"

import "unsafe"

// Graph owns a graph and the memory its alloc node made.
type Graph struct {
	g     C.hipGraph_t
	alloc C.hipGraphNode_t
	ptr   unsafe.Pointer
}

// Alloc adds an alloc node and keeps its address.
func (g *Graph) Alloc(n int) error {
	var params C.hipMemAllocNodeParams
	params.bytesize = C.size_t(n)
	params.poolProps.allocType = C.hipMemAllocationTypePinned
	params.poolProps.location._type = C.hipMemLocationTypeDevice
	if r := C.hipGraphAddMemAllocNode(&g.alloc, g.g, nil, 0, &params); r != C.hipSuccess {
		return nil
	}
	g.ptr = params.dptr
	return nil
}

// Free adds the free node for the graph's allocation.
func (g *Graph) Free() { // want Free:"freesParam\\[-1.ptr\\]"
	var free C.hipGraphNode_t
	C.hipGraphAddMemFreeNode(&free, g.g, &g.alloc, 1, g.ptr)
}

// Plain holds memory from hipMalloc, and frees it with a graph free node.
type Plain struct {
	g   C.hipGraph_t
	ptr unsafe.Pointer
}

// Alloc allocates device memory outside the graph.
func (p *Plain) Alloc(n int) {
	C.hipMalloc(&p.ptr, C.size_t(n))
}

// Free adds a free node for it: rejected with hipErrorInvalidValue.
func (p *Plain) Free() { // want Free:"freesParam\\[-1.ptr\\]"
	var free C.hipGraphNode_t
	C.hipGraphAddMemFreeNode(&free, p.g, nil, 0, p.ptr) // want `hipGraphAddMemFreeNode frees p.ptr, which is device memory from hipMalloc`
}

// Managed holds managed memory, assigned from a local.
type Managed struct {
	g   C.hipGraph_t
	buf unsafe.Pointer
}

// Init allocates managed memory.
func (m *Managed) Init(n int) {
	var p unsafe.Pointer
	C.hipMallocManaged(&p, C.size_t(n), C.hipMemAttachGlobal)
	m.buf = p
}

// Release adds a free node for it.
func (m *Managed) Release() { // want Release:"freesParam\\[-1.buf\\]"
	var free C.hipGraphNode_t
	C.hipGraphAddMemFreeNode(&free, m.g, nil, 0, m.buf) // want `hipGraphAddMemFreeNode frees m.buf, which is managed memory from hipMallocManaged`
}

// Mixed holds graph memory in one method and device memory in another:
// what a free node frees depends on which ran, so nothing is reported.
type Mixed struct {
	g     C.hipGraph_t
	alloc C.hipGraphNode_t
	ptr   unsafe.Pointer
}

func (x *Mixed) FromGraph(n int) {
	var params C.hipMemAllocNodeParams
	params.bytesize = C.size_t(n)
	C.hipGraphAddMemAllocNode(&x.alloc, x.g, nil, 0, &params)
	x.ptr = params.dptr
}

func (x *Mixed) FromDevice(n int) {
	C.hipMalloc(&x.ptr, C.size_t(n))
}

func (x *Mixed) Free() { // want Free:"freesParam\\[-1.ptr\\]"
	var free C.hipGraphNode_t
	C.hipGraphAddMemFreeNode(&free, x.g, &x.alloc, 1, x.ptr)
}

// freeNode adds a free node for p.
func freeNode(g C.hipGraph_t, p unsafe.Pointer) { // want freeNode:"freesParam\\[1\\]"
	var free C.hipGraphNode_t
	C.hipGraphAddMemFreeNode(&free, g, nil, 0, p)
}

// ReleaseVia frees the plain buffer through the wrapper.
func (p *Plain) ReleaseVia() { // want ReleaseVia:"freesParam\\[-1.ptr\\]"
	freeNode(p.g, p.ptr) // want `freeNode frees p.ptr, which is device memory from hipMalloc`
}

// FreeVia frees the graph's allocation through the wrapper: fine.
func (g *Graph) FreeVia() { // want FreeVia:"freesParam\\[-1.ptr\\]"
	freeNode(g.g, g.ptr)
}
