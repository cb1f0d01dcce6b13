package flow

import (
	"go/ast"
	"go/types"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestEffectsWalk: reads before their operands, calls after their function
// and arguments, literals not entered, &x[i] no read, range operands read.
func TestEffectsWalk(t *testing.T) {
	src := `package p
func f(int) int { return 0 }
func g(func()) int { return 0 }
func use(p *int, s []int) {
	_ = s[f(*p)] + g(func() { _ = s[0] })
	_ = &s[f(1)]
	for range s {
	}
}
`
	pass, _ := fakePass(t, src)
	x := &Index{fset: pass.Fset, files: pass.Files, info: pass.TypesInfo}
	body := pass.Files[0].Decls[2].(*ast.FuncDecl).Body
	var got []string
	w := Effects[int]{Index: x, Ranged: x.RangeOperands(body),
		Lit:   func(*ast.FuncLit, int) { got = append(got, "lit") },
		Other: func(call *ast.CallExpr, _ int) { got = append(got, "call "+types.ExprString(call)) },
		Read: func(e ast.Expr, at ast.Node, _ int) {
			got = append(got, "read "+types.ExprString(e)+" at "+types.ExprString(at.(ast.Expr)))
		},
	}
	w.Walk(body, 0)
	assert.Equal(t, []string{"read s at s[f(*p)]", "read p at *p", "call f(*p)", "lit", "call g((func() literal))",
		"call f(1)", "read s at s"}, got)
}

// TestEffectsWalkCalledLit: a literal called where it is written runs after
// its arguments are evaluated, as Go calls it.
func TestEffectsWalkCalledLit(t *testing.T) {
	src := `package p
func f(int) int { return 0 }
func use() {
	func(int) {}(f(1))
}
`
	pass, _ := fakePass(t, src)
	x := &Index{fset: pass.Fset, files: pass.Files, info: pass.TypesInfo}
	body := pass.Files[0].Decls[1].(*ast.FuncDecl).Body
	var got []string
	w := Effects[int]{Index: x,
		Lit: func(lit *ast.FuncLit, _ int) {
			got = append(got, "lit", "in place "+map[bool]string{true: "yes", false: "no"}[x.InPlace(lit)])
		},
		Other: func(call *ast.CallExpr, _ int) { got = append(got, "call "+types.ExprString(call)) },
	}
	w.Walk(body, 0)
	assert.Equal(t, []string{"call f(1)", "lit", "in place yes", "call (func(int) literal)(f(1))"}, got)
}
