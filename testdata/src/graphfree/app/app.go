// Package app uses bufs without cgo of its own: the graph-free rules reach it
// through facts.
package app

import (
	"unsafe"

	"graphfree/bufs"
)

// A buffer type allocated in another package by hipMalloc, freed by a free node.
func freeDeviceBuffer(g *bufs.Graph) error {
	b, err := bufs.NewBuffer(1 << 20)
	if err != nil {
		return err
	}
	return g.Free(b.Ptr()) // want `Free frees b.Ptr\(\), which is device memory from hipMalloc \(via NewBuffer\), not a graph allocation`
}

func freeBufferMethod(g *bufs.Graph) error {
	b, err := bufs.NewBuffer(1 << 20)
	if err != nil {
		return err
	}
	return g.FreeBuffer(b) // want `FreeBuffer frees b.ptr, which is device memory from hipMalloc \(via NewBuffer\)`
}

// Silent: graph memory from the graph's own alloc node.
func graphMemory(g *bufs.Graph) error {
	p, err := g.Alloc(4096)
	if err != nil {
		return err
	}
	return g.Free(p)
}

func freedTwice(g *bufs.Graph) {
	p, err := g.Alloc(4096)
	if err != nil {
		return
	}
	g.Free(p)
	g.Free(p) // want `Free frees p, which Free already freed`
}

// Silent: a pointer parameter of unknown origin.
func FreeLater(g *bufs.Graph, p unsafe.Pointer) error { // want FreeLater:"freesParam\\[1\\]"
	return g.Free(p)
}

// Silent: a buffer freed the ordinary way.
func ordinary() error {
	b, err := bufs.NewBuffer(64)
	if err != nil {
		return err
	}
	return b.Free()
}

// Silent: allocated while the stream is captured, freed by a node of the captured graph.
func capturedThroughWrappers(s *bufs.Stream) error {
	if err := s.BeginCapture(); err != nil {
		return err
	}
	p := s.AllocAsync(4096)
	g, err := s.EndCapture()
	if err != nil {
		return err
	}
	return g.Free(p)
}

func asyncOutsideCapture(s *bufs.Stream, g *bufs.Graph) error {
	p := s.AllocAsync(4096)
	return g.Free(p) // want `Free frees p, which hipMallocAsync \(via AllocAsync\) allocated outside stream capture`
}
