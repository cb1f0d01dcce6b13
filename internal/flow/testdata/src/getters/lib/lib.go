// want package:"involved"

// Package lib wraps device memory the way Go GPU libraries do: getters
// expose the pointer a Buffer holds.
package lib

import (
	"unsafe"

	"getters/hip"
)

type Buffer struct {
	ptr   unsafe.Pointer
	n     int
	inner struct{ dev uintptr }
}

func New(n int) *Buffer {
	return &Buffer{ptr: hip.Malloc(n), n: n}
}

func (b *Buffer) Ptr() unsafe.Pointer { return b.ptr } // want Ptr:"returnsField\\(r.ptr\\)"

func (b *Buffer) Values() []float32 { return unsafe.Slice((*float32)(b.ptr), b.n) } // want Values:"returnsField\\(r.ptr\\)"

func (b Buffer) Dev() uintptr { return b.inner.dev } // want Dev:"returnsField\\(r.inner.dev\\)"

func Of(b *Buffer) unsafe.Pointer { return b.ptr } // want Of:"returnsField\\(p0.ptr\\)"

func (b *Buffer) Len() int { return b.n }

func (b *Buffer) Two() unsafe.Pointer { p := b.ptr; return p }
