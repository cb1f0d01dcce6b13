package flow

import (
	"go/ast"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
)

// TestSharedSources: the Index builds its Sources once for every analyzer;
// a copy (Sources) that AddOut adds to leaves the shared one, and the other
// copies, as they were, even where a list had room to grow in place.
func TestSharedSources(t *testing.T) {
	src := `package p
import "unsafe"
type T struct{ ptr unsafe.Pointer }
func alloc(out *unsafe.Pointer) {}
func f() {
	var v unsafe.Pointer
	v = nil
	v = unsafe.Pointer(nil)
	v = unsafe.Pointer(uintptr(0))
	var t T
	t.ptr = nil
	alloc(&v)
	alloc(&t.ptr)
}
`
	pass, _ := fakePass(t, src)
	info := pass.TypesInfo
	x := NewIndex(pass.Fset, pass.Files, info)
	shared := x.SharedSources()
	require.True(t, shared == x.SharedSources(), "built once")
	count := func(s *Sources, name string) int {
		n := 0
		for o, srcs := range s.Of {
			if o.Name() == name {
				n += len(srcs)
			}
		}
		return n
	}
	fields := func(s *Sources) int {
		n := 0
		for _, srcs := range s.Fields {
			n += len(srcs)
		}
		return n
	}
	require.Equal(t, 3, count(shared, "v"))
	require.Equal(t, 1, count(shared, "ptr"))
	require.Equal(t, 1, fields(shared))
	for o, srcs := range shared.Of {
		assert.Equal(t, len(srcs), cap(srcs), "%s: a shared list has no room to grow in place", o.Name())
	}

	a, b := x.Sources(), x.Sources()
	var calls []*ast.CallExpr
	ast.Inspect(pass.Files[0], func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok && Callee(info, call) != nil && Callee(info, call).Name() == "alloc" {
			calls = append(calls, call)
		}
		return true
	})
	require.Len(t, calls, 2)
	for _, call := range calls {
		a.AddOut(info, call.Args[0], call)
	}
	assert.Equal(t, 4, count(a, "v"), "the copy has the out-argument")
	assert.Equal(t, 2, count(a, "ptr"))
	assert.Equal(t, 2, fields(a))
	for _, s := range []*Sources{shared, b, x.Sources()} {
		assert.Equal(t, 3, count(s, "v"), "the shared index and the other copies are unchanged")
		assert.Equal(t, 1, count(s, "ptr"))
		assert.Equal(t, 1, fields(s))
	}
	// Another copy's out-argument of v, by another call, does not land
	// in a's list (as it would in an array the two shared).
	b.AddOut(info, calls[0].Args[0], calls[1])
	last := func(s *Sources) *ast.CallExpr {
		for o, srcs := range s.Of {
			if o.Name() == "v" {
				return srcs[len(srcs)-1].Call
			}
		}
		return nil
	}
	assert.True(t, last(a) == calls[0], "a keeps its own source of v")
	assert.True(t, last(b) == calls[1])
	assert.Equal(t, 3, count(shared, "v"))

	x.Release()
	y := NewIndex(pass.Fset, pass.Files, info)
	y.Release()
	assert.Empty(t, y.SharedSources().Of, "released before use: empty, not nil")
	assert.Empty(t, y.Sources().Of)
}
