package flow

import (
	"go/ast"
	"go/types"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
)

func TestParamRefOf(t *testing.T) {
	src := `package p
import "unsafe"
type B struct{ ptr unsafe.Pointer }
var g unsafe.Pointer
func (b *B) f(s []float32, p unsafe.Pointer, n int) {
	q := p
	use(uintptr(q), &s[0], b.ptr, &b.ptr, unsafe.SliceData(s[1:]), g, n, &n)
}
func use(...any) {}
`
	pass, _ := fakePass(t, src)
	info := pass.TypesInfo
	srcs := indexSources(info, pass.Files)
	var sig *types.Signature
	var args []ast.Expr
	ast.Inspect(pass.Files[0], func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncDecl:
			if n.Name.Name == "f" {
				sig = info.Defs[n.Name].(*types.Func).Signature()
			}
		case *ast.CallExpr:
			if id, ok := n.Fun.(*ast.Ident); ok && id.Name == "use" {
				args = n.Args
			}
		}
		return true
	})
	want := []string{"p1", "p0", "r.ptr", "r", "p0", "", "p2", ""}
	for i, arg := range args {
		r, ok := ParamRefOf(info, srcs, sig, arg)
		got := ""
		if ok {
			got = r.String()
		}
		assert.Equal(t, want[i], got, types.ExprString(arg))
	}
	_, ok := ParamRefOf(info, srcs, nil, args[0])
	assert.False(t, ok, "no signature")
	assert.Equal(t, "*p.B", RefType(sig, Ref{Param: Receiver}).String())
	assert.Equal(t, "int", RefType(sig, Ref{Param: 2}).String())
	assert.Nil(t, RefType(sig, Ref{Param: 3}))
	f := FieldByName(RefType(sig, Ref{Param: Receiver}), pass.Pkg, "ptr")
	assert.Equal(t, "ptr", f.Name())
	assert.Nil(t, FieldByName(nil, pass.Pkg, "ptr"))
	assert.Nil(t, FieldByName(RefType(sig, Ref{Param: Receiver}), pass.Pkg, "f"), "a method is no field")
}
