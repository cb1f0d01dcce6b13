package flow

import (
	"go/ast"
	"go/types"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
)

// TestIndexStoreDeps: the Index's StoreDeps, over the fields and package
// variables its build walk listed, is the function StoreDeps for every body:
// fields read through selectors (in closures too), package variables, not
// another package's variables, nor fields named as composite literal keys
// or locals, each once, in the order first named.
func TestIndexStoreDeps(t *testing.T) {
	src := `package p
import "os"
type T struct{ ptr, other *int; next *T }
func alloc() *int { return nil }
func other() *int { return nil }
func third() *int { return nil }
func mk() *T { return nil }
var g = other()
var h, k = alloc(), third()
func New() *T { return &T{ptr: alloc(), other: other(), next: mk()} }
func (t *T) Ptr() *int { return t.ptr }
func G() *int { return g }
func Local() *int { p := alloc(); return p }
func Both(t *T) *int {
	_ = os.Args
	x := T{ptr: nil}
	_ = x
	f := func() *int { _ = h; return t.next.other }
	if k != nil {
		return g
	}
	_ = t.ptr
	return f()
}
func Shadow() *int { g := third(); return g }
`
	pass, _ := fakePass(t, src)
	info := pass.TypesInfo
	x := NewIndex(pass.Fset, pass.Files, info)
	s := x.SharedSources()
	names := func(fns []*types.Func) []string {
		var out []string
		for _, fn := range fns {
			out = append(out, fn.Name())
		}
		return out
	}
	got := map[string][]string{}
	n := 0
	for _, fn := range x.Funcs() {
		want := storeDeps(info, pass.Pkg, s, fn.Body)
		have := x.StoreDeps(pass.Pkg, s, fn.Body)
		assert.Equal(t, names(want), names(have))
		if fn.Decl != nil {
			got[fn.Decl.Name.Name] = names(have)
			n++
		}
	}
	require.Equal(t, 10, n)
	assert.Equal(t, []string{"alloc", "other", "mk", "third", "other", "alloc"}, got["Both"],
		"h, t.next.other's other then next (in the closure), k, g, t.ptr; not os.Args, nor the key ptr")
	assert.Equal(t, []string{"alloc"}, got["Ptr"])
	assert.Empty(t, got["Shadow"])

	// A body the walk did not list: the function's own walk.
	body := &ast.BlockStmt{}
	assert.Empty(t, x.StoreDeps(pass.Pkg, s, body))
}
