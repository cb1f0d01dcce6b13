// Package typeshapes holds the Go type shapes every recursion over types,
// implementations and summaries must survive: embedded interfaces (in
// structs, in interfaces, behind pointers), recursive and mutually recursive
// types, generic types and methods, method values and expressions,
// function-typed fields and interfaces that mention themselves. Nothing here
// is a hazard the analyzers can prove; the test asserts they finish.
package typeshapes

// #cgo CFLAGS: -I${SRCDIR}/../../../include
// #include <hip/hip_runtime_api.h>
import "C"

import "unsafe"

type Freer interface{ Free(p unsafe.Pointer) }

type Loader interface {
	Freer // an interface embedding an interface
	Load(img unsafe.Pointer) C.hipModule_t
	Self() Loader // an interface that mentions itself
}

type byPointer struct{ *byValue } // embeds a pointer to a struct that embeds an interface
type byValue struct{ Loader }

// Node and Tree are mutually recursive; List is recursive through a pointer.
type Node struct {
	tree *Tree
	next Freer
}
type Tree struct{ root *Node }
type List struct {
	next *List
	Freer
}

// Box is a generic type whose method is called through an interface.
type Box[T any] struct {
	v    T
	free func(unsafe.Pointer) // a function-typed field
}

func (b *Box[T]) Free(p unsafe.Pointer) {
	if b.free != nil {
		b.free(p)
	}
	C.hipFree(p)
}

func Generic[T Freer](f T, p unsafe.Pointer) { f.Free(p) }

type Ring struct{ Freer }

func (r Ring) Free(p unsafe.Pointer) { r.Freer.Free(p) } // calls itself through its field

func Use(dst, src unsafe.Pointer, n C.size_t, l Loader, lst *List, t *Tree, r Ring) {
	C.hipMemcpy(dst, src, n, C.hipMemcpyDeviceToDevice)
	C.hipDeviceSynchronize()
	l.Free(dst)
	l.Self().Free(dst)
	lst.Free(dst)
	t.root.next.Free(dst)
	free := l.Free // a method value
	free(dst)
	expr := Loader.Free // a method expression
	expr(l, dst)
	(*Box[int]).Free(&Box[int]{}, dst)
	Generic[Ring](r, dst)
	r.Free(src)
	var m C.hipModule_t
	if C.hipModuleLoadData(&m, src) == C.hipSuccess {
		C.hipModuleUnload(m)
	}
	var b byPointer
	_ = b
}

var (
	_ Freer  = Ring{}
	_ Freer  = (*Box[int])(nil)
	_ Loader = byValue{}
	_ Loader = byPointer{}
	_ Freer  = &List{}
)
