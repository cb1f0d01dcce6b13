package flow

import (
	"go/ast"
	"go/types"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
)

func TestRegistered(t *testing.T) {
	c := check(t, `package p
type M struct{}
func (M) Close() {}
func helper() {}
func cleanup(fs ...func()) {}
func f(m M) {
	cleanup(func() {}, m.Close, helper, (m).Close)
}`)
	fn := c.file.Decls[len(c.file.Decls)-1].(*ast.FuncDecl)
	call := fn.Body.List[0].(*ast.ExprStmt).X.(*ast.CallExpr)
	var got []string
	registered(c.info, call, func(lit *ast.FuncLit) { got = append(got, "closure") }, func(recv ast.Expr, fn *types.Func) {
		got = append(got, types.ExprString(recv)+"."+fn.Name())
	})
	// helper is no method value.
	assert.Equal(t, []string{"closure", "m.Close", "(m).Close"}, got)
}
