package xnack

import (
	"go/ast"
	"go/types"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
)

func TestVarInitCalls(t *testing.T) {
	src := `package p
func f(int) int { return 0 }
func g() int { return 0 }
var a = f(g())
var h = func() int { return g() }
var b, c = f(1), g()
func init() { _ = g() }
`
	pass, _ := fakePass(t, src)
	var got []string
	varInitCalls(pass.TypesInfo, pass.Files, func(call *ast.CallExpr) bool {
		got = append(got, types.ExprString(call))
		return true
	})
	assert.Equal(t, []string{"f(g())", "g()", "f(1)", "g()"}, got, "outer calls first; literals and functions not entered")
	got = nil
	varInitCalls(pass.TypesInfo, pass.Files, func(call *ast.CallExpr) bool {
		got = append(got, types.ExprString(call))
		return len(got) < 2
	})
	assert.Len(t, got, 2, "stops when yield says so")
}
