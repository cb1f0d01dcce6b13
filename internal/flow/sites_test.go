package flow

import (
	"go/ast"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
)

// TestSitesIn: In lists the sites of the calls in an expression, each
// call's in order, through cgo's wrapper literals but not into other
// closures; with no sites it lists none.
func TestSitesIn(t *testing.T) {
	_, f, info, _ := indexOfSrc(t)
	var body *ast.BlockStmt
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Name.Name == "f" {
			body = fd.Body
		}
	}
	var calls []*ast.CallExpr
	ast.Inspect(body, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok {
			calls = append(calls, c)
		}
		return true
	})
	// calls: hipDeviceSynchronize; the wrapper's call, _cgoCheckPointer and
	// hipFree inside it; do, and the closure's hipDeviceSynchronize; the
	// deferred do.
	wrapped := body.List[1].(*ast.ExprStmt).X
	passed := body.List[2].(*ast.ExprStmt).X

	var s Sites[string]
	assert.Nil(t, s.In(info, wrapped), "no sites")

	for i, c := range calls {
		s.Add(c, 0, func() string { return "first" })
		if i == 3 { // hipFree: two sites
			s.Add(c, 1, func() string { return "second" })
		}
	}
	assert.Equal(t, []int{1, 2, 3, 4}, s.In(info, wrapped), "the wrapper's call, then the calls in it")
	assert.Equal(t, []int{5}, s.In(info, passed), "do's own, not its closure's")
	assert.Equal(t, []int{0}, s.In(info, body.List[0].(*ast.ExprStmt).X))
}
