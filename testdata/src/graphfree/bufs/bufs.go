// Package bufs is a thin Go wrapper over HIP memory and graphs, the way Go GPU
// libraries are written; its summaries reach other packages as facts.
package bufs

// #cgo CFLAGS: -I${SRCDIR}/../../../include
// #include <hip/hip_runtime_api.h>
import "C"

import (
	"fmt"
	"unsafe"
)

type Error C.hipError_t

func (e Error) Error() string { return fmt.Sprintf("hip error %d", int(e)) }

func result(r C.hipError_t) error {
	if r != C.hipSuccess {
		return Error(r)
	}
	return nil
}

// Buffer is device memory from hipMalloc.
type Buffer struct {
	ptr  unsafe.Pointer
	size int
}

// NewBuffer allocates n bytes of device memory.
func NewBuffer(n int) (*Buffer, error) { // want NewBuffer:"returnsMemory\\[0.ptr=device:hipMalloc\\]"
	b := &Buffer{size: n}
	if err := result(C.hipMalloc(&b.ptr, C.size_t(n))); err != nil {
		return nil, err
	}
	return b, nil
}

// Ptr returns the device address.
func (b *Buffer) Ptr() unsafe.Pointer { return b.ptr }

// Free releases the buffer.
func (b *Buffer) Free() error { return result(C.hipFree(b.ptr)) } // want Free:"freesParam\\[host:-1.ptr\\]"

// Graph is a graph under construction.
type Graph struct {
	g    C.hipGraph_t
	last C.hipGraphNode_t
}

// Alloc adds an alloc node and returns the address it will hold.
func (g *Graph) Alloc(n int) (unsafe.Pointer, error) { // want Alloc:"returnsMemory\\[0=graph:hipGraphAddMemAllocNode\\]"
	var params C.hipMemAllocNodeParams
	params.poolProps.allocType = C.hipMemAllocationTypePinned
	params.poolProps.location._type = C.hipMemLocationTypeDevice
	params.bytesize = C.size_t(n)
	var node C.hipGraphNode_t
	if err := result(C.hipGraphAddMemAllocNode(&node, g.g, nil, 0, &params)); err != nil {
		return nil, err
	}
	g.last = node
	return params.dptr, nil
}

// Free adds a free node for p after the last node.
func (g *Graph) Free(p unsafe.Pointer) error { // want Free:"freesParam\\[0\\]"
	var node C.hipGraphNode_t
	if err := result(C.hipGraphAddMemFreeNode(&node, g.g, &g.last, 1, p)); err != nil {
		return err
	}
	g.last = node
	return nil
}

// FreeBuffer adds a free node for a buffer's memory.
func (g *Graph) FreeBuffer(b *Buffer) error { // want FreeBuffer:"freesParam\\[0.ptr\\]"
	var node C.hipGraphNode_t
	return result(C.hipGraphAddMemFreeNode(&node, g.g, &g.last, 1, b.ptr)) // want `hipGraphAddMemFreeNode frees b.ptr, which is device memory from hipMalloc \(stored in field ptr by NewBuffer\)`
}

// Stream wraps a HIP stream.
type Stream struct{ h C.hipStream_t }

// BeginCapture starts recording the stream's work into a graph.
func (s *Stream) BeginCapture() error { // want BeginCapture:"capturesStream\\(begins\\[-1.h\\] ends\\[\\]\\)"
	return result(C.hipStreamBeginCapture(s.h, C.hipStreamCaptureModeGlobal))
}

// EndCapture stops recording and returns the graph.
func (s *Stream) EndCapture() (*Graph, error) { // want EndCapture:"capturesStream\\(begins\\[\\] ends\\[-1.h\\]\\)"
	g := &Graph{}
	if err := result(C.hipStreamEndCapture(s.h, &g.g)); err != nil {
		return nil, err
	}
	return g, nil
}

// AllocAsync allocates stream-ordered memory.
func (s *Stream) AllocAsync(n int) unsafe.Pointer { // want AllocAsync:"returnsMemory\\[0=stream-ordered:hipMallocAsync\\]"
	var p unsafe.Pointer
	C.hipMallocAsync(&p, C.size_t(n), s.h)
	return p
}
