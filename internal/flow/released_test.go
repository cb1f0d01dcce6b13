package flow

import (
	"go/ast"
	"go/types"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
)

func TestReleased(t *testing.T) {
	c := check(t, `package p
type T struct{ h *int }
func free(p *int) {}
func keep(p *int) {}
func f(a T, b *int) {
	free(a.h)
	keep(b)
	func() { free(b) }()
}`)
	fn := c.file.Decls[3].(*ast.FuncDecl)
	// free releases its argument; keep releases nothing.
	frees := func(call *ast.CallExpr) []ast.Expr {
		if id, ok := call.Fun.(*ast.Ident); ok && id.Name == "free" {
			return call.Args
		}
		return nil
	}
	// The same without an Index (ast.Inspect) and over an Index's list.
	x := NewIndex(c.fset, []*ast.File{c.file}, c.info)
	for _, idx := range []*Index{nil, x} {
		var got []string
		Released(idx, fn.Body, frees, func(call *ast.CallExpr, e ast.Expr) {
			got = append(got, types.ExprString(call)+": "+types.ExprString(e))
		})
		assert.Equal(t, []string{"free(a.h): a.h", "free(b): b"}, got, "in source order, closures included")

		var names []string
		for v := range ReleasedRoots(idx, c.info, fn.Body, frees) {
			names = append(names, v.Name())
		}
		assert.ElementsMatch(t, []string{"a", "b"}, names)
	}
	_, listed := x.ranges[fn.Body]
	assert.True(t, listed, "the Index walks its list")
}
