package graphfree

import (
	"go/ast"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
)

func TestEmptyArray(t *testing.T) {
	src := `package p
import "unsafe"
func add(deps unsafe.Pointer, n int) {}
func f(node unsafe.Pointer, n int) {
	add(nil, n)
	add(unsafe.Pointer(nil), n)
	add(node, 0)
	add(node, n)
}
`
	pass, _ := fakePass(t, src)
	body := pass.Files[0].Decls[2].(*ast.FuncDecl).Body.List
	var got []bool
	for _, st := range body {
		call := st.(*ast.ExprStmt).X.(*ast.CallExpr)
		got = append(got, emptyArray(pass.TypesInfo, call.Args[0], call.Args[1]))
	}
	assert.Equal(t, []bool{true, true, true, false}, got)
	assert.True(t, emptyArray(pass.TypesInfo, nil, nil), "an absent array")
}
