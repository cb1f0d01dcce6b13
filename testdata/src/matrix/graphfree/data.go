package graphfree

// #include <hip/hip_runtime_api.h>
import "C"

import (
	"sync"
	"unsafe"
)

//matrix:hazard data-local
func localDevice(gr *Graph, dep node) {
	p := deviceAlloc()
	gr.Free(dep, p) // want `which is device memory from hipMalloc \(via deviceAlloc\), not a graph allocation`
}

//matrix:twin data-local
func localGraph(gr *Graph) {
	a, p, err := gr.Alloc(n)
	if err == nil {
		gr.Free(a, p)
	}
}

type scratch struct {
	ptr  unsafe.Pointer
	size int
}

//matrix:hazard data-field-local
func fieldLocalDevice(gr *Graph, dep node) {
	s := scratch{ptr: deviceAlloc(), size: n}
	gr.Free(dep, s.ptr) // want `which is device memory from hipMalloc \(via deviceAlloc\), not a graph allocation`
}

//matrix:twin data-field-local
func fieldLocalGraph(gr *Graph) {
	a, p, err := gr.Alloc(n)
	if err != nil {
		return
	}
	s := scratch{ptr: p, size: n}
	gr.Free(a, s.ptr)
}

// Workspace keeps a buffer for the graph it builds.
type Workspace struct {
	gr   *Graph
	buf  unsafe.Pointer
	node node
}

// NewWorkspaceDevice allocates the buffer outside the graph.
func NewWorkspaceDevice(gr *Graph) *Workspace { // want NewWorkspaceDevice:"returnsMemory\\[0\\.buf=device:hipMalloc \\(via deviceAlloc\\)\\]"
	return &Workspace{gr: gr, buf: deviceAlloc()}
}

// FinishDevice frees the workspace's buffer by a node that depends on dep.
func (w *Workspace) FinishDevice(dep node) { // want FinishDevice:"freesParam\\[\\-1\\.buf\\]"
	w.gr.Free(dep, w.buf)
}

//matrix:hazard data-field-receiver
func fieldReceiverDevice(gr *Graph, dep node) {
	w := NewWorkspaceDevice(gr)
	w.FinishDevice(dep) // want `FinishDevice frees w.buf, which is device memory from hipMalloc \(via deviceAlloc\), not a graph allocation`
}

// NewWorkspace allocates the buffer with an allocation node.
func NewWorkspace(gr *Graph) (*Workspace, error) { // want NewWorkspace:"returnsMemory\\[0\\.buf=graph:hipGraphAddMemAllocNode \\(via Alloc\\)\\]"
	a, p, err := gr.Alloc(n)
	if err != nil {
		return nil, err
	}
	return &Workspace{gr: gr, buf: p, node: a}, nil
}

// Finish frees the workspace's buffer by a node after its allocation node.
func (w *Workspace) Finish() { // want Finish:"freesParam\\[\\-1\\.buf\\]"
	w.gr.Free(w.node, w.buf)
}

//matrix:twin data-field-receiver
func fieldReceiverGraph(gr *Graph) error {
	w, err := NewWorkspace(gr)
	if err != nil {
		return err
	}
	w.Finish()
	return nil
}

var pool struct {
	mu  sync.Mutex
	buf unsafe.Pointer
}

func init() { pool.buf = deviceAlloc() }

//matrix:hazard data-field-pkg
func fieldPkgDevice(gr *Graph, dep node) {
	pool.mu.Lock()
	defer pool.mu.Unlock()
	gr.Free(dep, pool.buf) // want `which is device memory from hipMalloc \(via deviceAlloc\), not a graph allocation`
}

var graphPool struct {
	buf  unsafe.Pointer
	node node
}

//matrix:twin data-field-pkg
func fieldPkgGraph(gr *Graph) {
	gr.Free(graphPool.node, graphPool.buf)
}

var cache struct {
	buf  unsafe.Pointer
	node node
}

func init() { cache.buf = deviceAlloc() } // a warm-up buffer until a graph refills it

//matrix:twin data-field-pkg
func fieldPkgRefilled(gr *Graph) {
	a, p, err := gr.Alloc(n)
	if err != nil {
		return
	}
	cache.buf, cache.node = p, a
	gr.Free(cache.node, cache.buf)
}

var shared = deviceAlloc()

// Shared returns the process-wide device buffer.
func Shared() unsafe.Pointer { return shared }

//matrix:hazard data-pkgvar-wrapper
func pkgVarDevice(gr *Graph, dep node) {
	gr.Free(dep, Shared()) // want `which is device memory from hipMalloc \(via deviceAlloc\), not a graph allocation`
}

var graphBuf unsafe.Pointer

// GraphBuf returns a buffer that graphs allocate and free themselves.
func GraphBuf() unsafe.Pointer { return graphBuf }

//matrix:twin data-pkgvar-wrapper
func pkgVarGraph(gr *Graph) {
	a, p, err := gr.Alloc(n)
	if err != nil {
		return
	}
	graphBuf = p
	gr.Free(a, GraphBuf())
}

//matrix:twin data-pkgvar-wrapper
func releaseShared() {
	C.hipFree(Shared()) // device memory, freed outside any graph
}

//matrix:hazard data-append-loop
func appendLoopDevice(gr *Graph, dep node) {
	var bufs []unsafe.Pointer
	for range 3 {
		bufs = append(bufs, deviceAlloc())
	}
	for _, b := range bufs {
		gr.Free(dep, b) // want `which is device memory from hipMalloc \(via deviceAlloc\), not a graph allocation`
	}
}

//matrix:twin data-append-loop
func appendLoopGraph(gr *Graph) {
	var nodes []node
	var bufs []unsafe.Pointer
	for range 3 {
		a, p, err := gr.Alloc(n)
		if err != nil {
			return
		}
		nodes, bufs = append(nodes, a), append(bufs, p)
	}
	for i, b := range bufs {
		gr.Free(nodes[i], b)
	}
}

//matrix:hazard data-chan
func chanDevice(gr *Graph, dep node) {
	ch := make(chan unsafe.Pointer, 1)
	ch <- deviceAlloc()
	gr.Free(dep, <-ch) // want `which is device memory from hipMalloc \(via deviceAlloc\), not a graph allocation`
}

//matrix:twin data-chan
func chanGraph(gr *Graph) {
	a, p, err := gr.Alloc(n)
	if err != nil {
		return
	}
	ch := make(chan unsafe.Pointer, 1)
	ch <- p
	gr.Free(a, <-ch)
}

// Buf is a device buffer and the node that allocated it, if any.
type Buf struct {
	Ptr  unsafe.Pointer
	Node node
}

func deviceBuf() Buf { return Buf{Ptr: deviceAlloc()} } // want deviceBuf:"returnsMemory\\[0\\.Ptr=device:hipMalloc \\(via deviceAlloc\\)\\]"

//matrix:hazard data-return-struct
func returnStructDevice(gr *Graph, dep node) {
	b := deviceBuf()
	gr.Free(dep, b.Ptr) // want `which is device memory from hipMalloc \(via deviceAlloc\), not a graph allocation`
}

func graphBufOf(gr *Graph) (Buf, error) { // want graphBufOf:"returnsMemory\\[0\\.Ptr=graph:hipGraphAddMemAllocNode \\(via Alloc\\)\\]"
	a, p, err := gr.Alloc(n)
	return Buf{Ptr: p, Node: a}, err
}

//matrix:twin data-return-struct
func returnStructGraph(gr *Graph) {
	b, err := graphBufOf(gr)
	if err == nil {
		gr.Free(b.Node, b.Ptr)
	}
}

func deviceTuple() (unsafe.Pointer, int) { return deviceAlloc(), n } // want deviceTuple:"returnsMemory\\[0=device:hipMalloc \\(via deviceAlloc\\)\\]"

//matrix:hazard data-return-tuple
func returnTupleDevice(gr *Graph, dep node) {
	p, _ := deviceTuple()
	gr.Free(dep, p) // want `which is device memory from hipMalloc \(via deviceAlloc\), not a graph allocation`
}

//matrix:twin data-return-tuple
func returnTupleGraph(gr *Graph) {
	a, p, err := gr.Alloc(n)
	if err == nil {
		gr.Free(a, p)
	}
}

var _ = C.hipSuccess
