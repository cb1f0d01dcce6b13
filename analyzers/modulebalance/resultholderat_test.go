package modulebalance

import (
	"go/ast"
	"go/types"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
)

func TestResultHolderAt(t *testing.T) {
	c := check(t, `package p
func open() (int, error) { return 0, nil }
func one() error { return nil }
func f() {
	m, err := open()
	_, _ = open()
	e := one()
	one()
	_, _, _ = m, err, e
}`)
	fn := c.File.Decls[2].(*ast.FuncDecl)
	call := func(i int) *ast.CallExpr {
		switch st := fn.Body.List[i].(type) {
		case *ast.AssignStmt:
			return st.Rhs[0].(*ast.CallExpr)
		case *ast.ExprStmt:
			return st.X.(*ast.CallExpr)
		}
		return nil
	}
	name := func(i, result int) string {
		h, ok := resultHolderAt(c.Info, fn.Body, call(i), result, nil)
		if !ok {
			return "-"
		}
		return h.(types.Object).Name()
	}
	assert.Equal(t, "err", name(0, 1))
	assert.Equal(t, "m", name(0, 0))
	assert.Equal(t, "-", name(0, -1)) // no status result
	assert.Equal(t, "-", name(0, 2))  // out of range
	assert.Equal(t, "-", name(1, 1))  // blank
	assert.Equal(t, "e", name(2, 0))  // ResultHolder
	assert.Equal(t, "-", name(3, 0))  // dropped
}
