// Package gexec is a graph executor: it builds a HIP graph from ops,
// with graph allocations for scratch memory, kernel nodes whose
// dependencies are built in loops, and steps recorded by stream capture.
package gexec

// #cgo CFLAGS: -I${SRCDIR}/../../../include
// #include <hip/hip_runtime_api.h>
import "C"

import (
	"errors"
	"unsafe"
)

var errHIP = errors.New("hip error")

func ok(r C.hipError_t) error {
	if r != C.hipSuccess {
		return errHIP
	}
	return nil
}

// Node is a graph node.
type Node = C.hipGraphNode_t

// Builder builds one graph.
type Builder struct {
	g       C.hipGraph_t
	fn      C.hipFunction_t
	weights unsafe.Pointer // hipMalloc'd, lives across launches
	n       int
}

// NewBuilder creates an empty graph and the persistent weights.
func NewBuilder(fn C.hipFunction_t, n int) (*Builder, error) { // want NewBuilder:`returnsMemory\[0\.weights=device:hipMalloc\]`
	b := &Builder{fn: fn, n: n}
	if err := ok(C.hipGraphCreate(&b.g, 0)); err != nil {
		return nil, err
	}
	if err := ok(C.hipMalloc(&b.weights, C.size_t(4*n))); err != nil {
		return nil, err
	}
	return b, nil
}

func deps(ds []Node) (*C.hipGraphNode_t, C.size_t) {
	if len(ds) == 0 {
		return nil, 0
	}
	return &ds[0], C.size_t(len(ds))
}

// Scratch is a graph allocation and the node that made it.
type Scratch struct {
	Node Node
	ptr  unsafe.Pointer
}

// Alloc adds an alloc node of n floats.
func (b *Builder) Alloc(after ...Node) (Scratch, error) { // want Alloc:`returnsMemory\[0\.ptr=graph:hipGraphAddMemAllocNode\]`
	var params C.hipMemAllocNodeParams
	params.bytesize = C.size_t(4 * b.n)
	params.poolProps.allocType = C.hipMemAllocationTypePinned
	params.poolProps.location._type = C.hipMemLocationTypeDevice
	var s Scratch
	d, nd := deps(after)
	if err := ok(C.hipGraphAddMemAllocNode(&s.Node, b.g, d, nd, &params)); err != nil {
		return Scratch{}, err
	}
	s.ptr = params.dptr
	return s, nil
}

// Kernel adds a kernel node over p.
func (b *Builder) Kernel(p unsafe.Pointer, after ...Node) (Node, error) {
	n := C.int(b.n)
	args := []unsafe.Pointer{unsafe.Pointer(&p), unsafe.Pointer(&n)}
	kp := C.hipKernelNodeParams{_func: unsafe.Pointer(b.fn), kernelParams: &args[0]}
	kp.gridDim.x, kp.blockDim.x = C.uint((b.n+255)/256), 256
	var k Node
	d, nd := deps(after)
	return k, ok(C.hipGraphAddKernelNode(&k, b.g, d, nd, &kp))
}

// Free adds a free node for p.
func (b *Builder) Free(p unsafe.Pointer, after ...Node) error { // want Free:`freesParam\[0\]`
	var f Node
	d, nd := deps(after)
	return ok(C.hipGraphAddMemFreeNode(&f, b.g, d, nd, p))
}

// ScratchPtr returns the scratch's address.
func (b *Builder) ScratchPtr(s Scratch) unsafe.Pointer { return s.ptr }

// Weights returns the persistent weights.
func (b *Builder) Weights() unsafe.Pointer { return b.weights }
