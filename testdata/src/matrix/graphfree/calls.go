package graphfree

// #include <hip/hip_runtime_api.h>
import "C"

import "unsafe"

//matrix:hazard call-direct
func directDevice(gr *Graph, dep node) {
	gr.Free(dep, deviceAlloc()) // want `which is device memory from hipMalloc \(via deviceAlloc\), not a graph allocation`
}

//matrix:twin call-direct
func directGraph(gr *Graph) {
	a, p, err := gr.Alloc(n)
	if err != nil {
		return
	}
	gr.Free(a, p)
}

//matrix:hazard call-method-value
func methodValueDevice(gr *Graph, dep node) {
	free := gr.Free
	free(dep, deviceAlloc()) // want `which is device memory from hipMalloc \(via deviceAlloc\), not a graph allocation`
}

//matrix:twin call-method-value
func methodValueGraph(gr *Graph) {
	a, p, err := gr.Alloc(n)
	if err != nil {
		return
	}
	free := gr.Free
	free(a, p)
}

//matrix:hazard call-method-expr
func methodExprDevice(gr *Graph, dep node) {
	(*Graph).Free(gr, dep, deviceAlloc()) // want `which is device memory from hipMalloc \(via deviceAlloc\), not a graph allocation`
}

//matrix:twin call-method-expr
func methodExprGraph(gr *Graph) {
	a, p, err := gr.Alloc(n)
	if err != nil {
		return
	}
	(*Graph).Free(gr, a, p)
}

// Builder embeds a Graph by value.
type Builder struct {
	Graph
	name string
}

//matrix:hazard call-promoted-value
func promotedValueDevice(b *Builder, dep node) {
	b.Free(dep, deviceAlloc()) // want `which is device memory from hipMalloc \(via deviceAlloc\), not a graph allocation`
}

//matrix:twin call-promoted-value
func promotedValueGraph(b *Builder) {
	a, p, err := b.Alloc(n)
	if err != nil {
		return
	}
	b.Free(a, p)
}

// Exec embeds a *Graph.
type Exec struct {
	*Graph
	stream C.hipStream_t
}

//matrix:hazard call-promoted-pointer
func promotedPointerDevice(e *Exec, dep node) {
	e.Free(dep, deviceAlloc()) // want `which is device memory from hipMalloc \(via deviceAlloc\), not a graph allocation`
}

//matrix:twin call-promoted-pointer
func promotedPointerGraph(e *Exec) {
	a, p, err := e.Alloc(n)
	if err != nil {
		return
	}
	e.Free(a, p)
}

// Plan embeds an Exec, which embeds a *Graph.
type Plan struct {
	Exec
	steps int
}

//matrix:hazard call-promoted-two
func promotedTwoDevice(pl *Plan, dep node) {
	pl.Free(dep, deviceAlloc()) // want `which is device memory from hipMalloc \(via deviceAlloc\), not a graph allocation`
}

//matrix:twin call-promoted-two
func promotedTwoGraph(pl *Plan) {
	a, p, err := pl.Alloc(n)
	if err != nil {
		return
	}
	pl.Free(a, p)
}

// Freer adds free nodes.
type Freer interface {
	Free(dep node, p unsafe.Pointer) (node, error)
}

//matrix:hazard call-iface-local
func ifaceDevice(f Freer, dep node) {
	f.Free(dep, deviceAlloc()) // want `which is device memory from hipMalloc \(via deviceAlloc\), not a graph allocation`
}

//matrix:twin call-iface-local
func ifaceGraph(gr *Graph) {
	a, p, err := gr.Alloc(n)
	if err != nil {
		return
	}
	var f Freer = gr
	f.Free(a, p)
}

//matrix:na call-iface-cross: the graph handle is a C type of one package; another package's implementation cannot take this package's node and pointer types without a shared Go wrapper, which is call-iface-local's shape

// Steps holds the free step as a function value.
type Steps struct {
	free func(node, unsafe.Pointer) (node, error)
}

//matrix:hazard call-func-field
func funcFieldDevice(gr *Graph, dep node) {
	s := Steps{free: gr.Free}
	s.free(dep, deviceAlloc()) // want `which is device memory from hipMalloc \(via deviceAlloc\), not a graph allocation`
}

//matrix:twin call-func-field
func funcFieldGraph(gr *Graph) {
	a, p, err := gr.Alloc(n)
	if err != nil {
		return
	}
	s := Steps{free: gr.Free}
	s.free(a, p)
}

//matrix:hazard call-func-map
func funcMapDevice(gr *Graph, dep node) {
	ops := map[string]func(node, unsafe.Pointer) (node, error){"free": gr.Free}
	ops["free"](dep, deviceAlloc()) // want `which is device memory from hipMalloc \(via deviceAlloc\), not a graph allocation`
}

//matrix:twin call-func-map
func funcMapGraph(gr *Graph) {
	a, p, err := gr.Alloc(n)
	if err != nil {
		return
	}
	ops := map[string]func(node, unsafe.Pointer) (node, error){"free": gr.Free}
	ops["free"](a, p)
}

// Option configures a graph build.
type Option func(*Graph) error

// WithScratchDevice frees a device buffer at the end of the graph.
//
//matrix:hazard call-options
func WithScratchDevice(dep node) Option {
	return func(gr *Graph) error {
		_, err := gr.Free(dep, deviceAlloc()) // want `which is device memory from hipMalloc \(via deviceAlloc\), not a graph allocation`
		return err
	}
}

func optionsDevice(gr *Graph, dep node) error {
	for _, o := range []Option{WithScratchDevice(dep)} {
		if err := o(gr); err != nil {
			return err
		}
	}
	return nil
}

// WithScratch allocates a scratch buffer in the graph and frees it.
//
//matrix:twin call-options
func WithScratch() Option {
	return func(gr *Graph) error {
		a, p, err := gr.Alloc(n)
		if err != nil {
			return err
		}
		_, err = gr.Free(a, p)
		return err
	}
}

func optionsGraph(gr *Graph) error {
	for _, o := range []Option{WithScratch()} {
		if err := o(gr); err != nil {
			return err
		}
	}
	return nil
}

func freeWith[F Freer](f F, dep node, p unsafe.Pointer) { f.Free(dep, p) } // want freeWith:"freesParam\\[2\\]"

//matrix:hazard call-generic-func
func genericFuncDevice(gr *Graph, dep node) {
	freeWith(gr, dep, deviceAlloc()) // want `which is device memory from hipMalloc \(via deviceAlloc\), not a graph allocation`
}

//matrix:twin call-generic-func
func genericFuncGraph(gr *Graph) {
	a, p, err := gr.Alloc(n)
	if err != nil {
		return
	}
	freeWith(gr, a, p)
}

// Typed is a graph of elements of type T.
type Typed[T any] struct{ gr *Graph }

// FreeAfter frees p after dep.
func (t *Typed[T]) FreeAfter(dep node, p unsafe.Pointer) { t.gr.Free(dep, p) } // want FreeAfter:"freesParam\\[1\\]"

//matrix:hazard call-generic-method
func genericMethodDevice(t *Typed[float32], dep node) {
	t.FreeAfter(dep, deviceAlloc()) // want `which is device memory from hipMalloc \(via deviceAlloc\), not a graph allocation`
}

//matrix:twin call-generic-method
func genericMethodGraph(t *Typed[float32]) {
	a, p, err := t.gr.Alloc(n)
	if err != nil {
		return
	}
	t.FreeAfter(a, p)
}
