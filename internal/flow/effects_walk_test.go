package flow

import (
	"go/ast"
	"go/types"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
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
	x := NewIndex(pass.Fset, pass.Files, pass.TypesInfo)
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
	x := NewIndex(pass.Fset, pass.Files, pass.TypesInfo)
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

// TestEffectsWalkStoredLit: a call of a local that holds one closure for
// good runs it (Stored) after its arguments; the literal where it is
// written is only a literal, and a variable that is reassigned, passed on
// or started as a goroutine holds no closure for good.
func TestEffectsWalkStoredLit(t *testing.T) {
	src := `package p
func f(int) int { return 0 }
func keep(func(int)) {}
func use() {
	run := func(int) {}
	run(f(1))
	again := func(int) {}
	again = func(int) {}
	again(2)
	passed := func(int) {}
	keep(passed)
	passed(3)
	bg := func(int) {}
	bg(4)
	go bg(5)
}
`
	pass, _ := fakePass(t, src)
	x := NewIndex(pass.Fset, pass.Files, pass.TypesInfo)
	body := pass.Files[0].Decls[2].(*ast.FuncDecl).Body
	var got []string
	w := Effects[int]{Index: x,
		Lit:    func(lit *ast.FuncLit, _ int) { got = append(got, "lit") },
		Stored: func(lit *ast.FuncLit, _ int) { got = append(got, "stored") },
		Other:  func(call *ast.CallExpr, _ int) { got = append(got, "call "+types.ExprString(call)) },
	}
	w.Walk(body, 0)
	assert.Equal(t, []string{"lit", "call f(1)", "stored", "call run(f(1))", "lit", "lit", "call again(2)",
		"lit", "call keep(passed)", "call passed(3)", "lit", "call bg(4)", "call bg(5)"}, got)
}

// TestEffectsWalkBound: a method expression's call and the call of a local
// holding a method value for good are handed to Other as calls of the
// method, whose receiver ArgAt names.
func TestEffectsWalkBound(t *testing.T) {
	src := `package p
type T struct{}
func (*T) Do(int) {}
func use(a, b *T) {
	(*T).Do(a, 1)
	do := b.Do
	do(2)
	other := b.Do
	other = a.Do
	other(3)
}
`
	pass, _ := fakePass(t, src)
	x := NewIndex(pass.Fset, pass.Files, pass.TypesInfo)
	body := pass.Files[0].Decls[2].(*ast.FuncDecl).Body
	var got []string
	w := Effects[int]{Index: x,
		Lit:    func(*ast.FuncLit, int) {},
		Stored: func(*ast.FuncLit, int) {},
		Other: func(call *ast.CallExpr, _ int) {
			name := "?"
			if fn := Callee(pass.TypesInfo, call); fn != nil {
				name = fn.Name()
			}
			got = append(got, name+" on "+types.ExprString(argAt(call, -1))+" with "+types.ExprString(argAt(call, 0)))
		},
	}
	w.Walk(body, 0)
	assert.Equal(t, []string{"Do on a with 1", "Do on b with 2", "? on (ast: <nil>) with 3"}, got)
}
