package flow

import (
	"go/ast"
	"go/types"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
)

func TestAddrTarget(t *testing.T) {
	src := `package p

import "unsafe"

type T struct{ a [4]int; p *T }

var _Cvar_x *int

func f(p unsafe.Pointer, s []int, tp *T) {
	var v T
	_ = &v
	_ = &v.a[1]
	_ = &T{}
	_ = &s[0]
	_ = &(*[4]int)(p)[2]
	_ = &tp.a
	_ = &v.p.a
	_ = &*_Cvar_x
	_ = &_Cvar_x
}
`
	f, info := checkSrc(t, src)
	body := f.Decls[len(f.Decls)-1].(*ast.FuncDecl).Body.List[1:]
	want := []struct {
		own bool
		via string
	}{{true, ""}, {true, ""}, {true, ""}, {false, "s"}, {false, "(*[4]int)(p)"}, {false, "tp"}, {false, "v.p"}, {false, ""}, {false, ""}}
	for i, st := range body {
		x := st.(*ast.AssignStmt).Rhs[0].(*ast.UnaryExpr).X
		own, via := addrTarget(info, x)
		got := ""
		if via != nil {
			got = types.ExprString(via)
		}
		assert.Equal(t, want[i].own, own, types.ExprString(x))
		assert.Equal(t, want[i].via, got, types.ExprString(x))
	}
}
