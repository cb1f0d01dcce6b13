package flow

import (
	"go/ast"
	"go/types"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestIndexFirstCall: the Index's list of calls answers FirstCall as the
// walk does, for every body of the package (literals inside literals
// included), whether literals are entered or not, and for every call it
// could stop at.
func TestIndexFirstCall(t *testing.T) {
	src := `package p
func f(int) int { return 0 }
func g(func()) int { return 0 }
func run(fn func()) { fn() }
func use() {
	_ = f(f(1)) + g(func() { f(2); run(func() { f(3) }) })
	run(func() { g(nil) })
	f(4)
}
`
	pass, _ := fakePass(t, src)
	x := &Index{fset: pass.Fset, files: pass.Files, info: pass.TypesInfo}
	var all []*ast.CallExpr
	ast.Inspect(pass.Files[0], func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok {
			all = append(all, call)
		}
		return true
	})
	enters := map[string]func(*ast.FuncLit) bool{
		"nil":   nil,
		"none":  func(*ast.FuncLit) bool { return false },
		"outer": func(lit *ast.FuncLit) bool { return len(lit.Body.List) > 1 },
	}
	bodies := 0
	for _, fn := range x.Funcs() {
		bodies++
		for name, enter := range enters {
			for _, target := range append(all, nil) {
				match := func(call *ast.CallExpr) bool { return call == target }
				if target == nil {
					match = func(call *ast.CallExpr) bool { return types.ExprString(call.Fun) == "g" }
				}
				want := FirstCall(fn.Body, enter, match)
				got := x.FirstCall(fn.Body, enter, match)
				assert.Same(t, want, got, "body at %v enter=%s target=%v", pass.Fset.Position(fn.Body.Pos()), name, target)
			}
		}
	}
	assert.Equal(t, 7, bodies) // four declarations, three literals
}
