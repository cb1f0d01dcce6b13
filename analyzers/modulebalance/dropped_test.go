package modulebalance

import (
	"go/ast"
	"go/types"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
)

func TestDroppedResult(t *testing.T) {
	c := check(t, `package p
type M struct{}
func (M) Borrow() {}
func (M) Keep() {}
func load() (M, error) { return M{}, nil }
func one() M { return M{} }
func f() {
	load()
	_, err := load()
	m, _ := load()
	(one()).Borrow()
	one().Keep()
	x := one()
	_, _, _ = err, m, x
}`)
	fn := c.File.Decls[len(c.File.Decls)-1].(*ast.FuncDecl)
	var calls []*ast.CallExpr
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok {
			if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok && (id.Name == "load" || id.Name == "one") {
				calls = append(calls, call)
			}
		}
		return true
	})
	drops := func(fn *types.Func) bool { return fn.Name() == "Borrow" }
	var got []bool
	for _, call := range calls {
		got = append(got, droppedResult(c.Info, fn.Body, call, 0, drops))
	}
	// load(); _, err := load(); m, _ := load(); (one()).Borrow(); one().Keep(); x := one()
	assert.Equal(t, []bool{true, true, false, true, false, false}, got)
	assert.True(t, droppedResult(c.Info, fn.Body, calls[2], 1, drops)) // its error is dropped
}
