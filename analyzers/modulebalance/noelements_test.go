package modulebalance

import (
	"go/ast"
	"testing"

	"github.com/hiplint/hiplint/internal/flow"
	"github.com/hiplint/hiplint/internal/testenv/assert"
)

func TestNoElements(t *testing.T) {
	c := check(t, `package p
type T struct{ f []int }
func f(t T) {
	_ = t.f[0]
	_ = t.f
}`)
	fn := c.File.Decls[1].(*ast.FuncDecl)
	rhs := func(i int) ast.Expr { return fn.Body.List[i].(*ast.AssignStmt).Rhs[0] }
	lc := flow.Locator{Info: c.Info, Index: noElements}
	_, ok := lc.Of(rhs(0))
	assert.False(t, ok) // an element: no location
	l, ok := lc.Of(rhs(1))
	assert.True(t, ok)
	assert.Equal(t, "t.f", l.String())
	l, ok = flow.Locator{Info: c.Info}.Of(rhs(0)) // the default names every element
	assert.True(t, ok)
	assert.Equal(t, "t.f[]", l.String())
}
