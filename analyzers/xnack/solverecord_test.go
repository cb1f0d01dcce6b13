package xnack

import (
	"go/ast"
	"testing"

	"github.com/hiplint/hiplint/internal/flow"
	"github.com/hiplint/hiplint/internal/testenv/assert"
)

// TestSolveRecord: the recording transfer sees each live node once, from
// the fixpoint, and the exits are joined; a body that never returns has no
// exit state.
func TestSolveRecord(t *testing.T) {
	src := "package p\nfunc f(c bool) int {\n\tx := 1\n\tif c {\n\t\ty := 2\n\t\t_ = y\n\t\treturn 1\n\t}\n\treturn x\n}\nfunc g() {\n\tfor {\n\t}\n}\n"
	pass, _ := fakePass(t, src)
	p := flow.Problem[int]{
		Clone: func(n int) int { return n },
		Join:  func(a, b int) int { return max(a, b) },
		Equal: func(a, b int) bool { return a == b },
		Transfer: func(n ast.Node, s int) int {
			if _, ok := n.(*ast.AssignStmt); ok {
				return s + 1
			}
			return s
		},
	}
	var seen []int
	record := func(n ast.Node, s int) int {
		if _, ok := n.(*ast.ReturnStmt); ok {
			seen = append(seen, s)
		}
		return p.Transfer(n, s)
	}
	body := pass.Files[0].Decls[0].(*ast.FuncDecl).Body
	exit, ok := solveRecord(pass.TypesInfo, flow.CFG(pass.TypesInfo, body), p, record)
	assert.True(t, ok)
	assert.Equal(t, 3, exit, "the join of 3 (return 1) and 1 (return x)")
	assert.ElementsMatch(t, []int{3, 1}, seen, "each return recorded once")

	body = pass.Files[0].Decls[1].(*ast.FuncDecl).Body
	_, ok = solveRecord(pass.TypesInfo, flow.CFG(pass.TypesInfo, body), p, record)
	assert.False(t, ok, "an endless loop has no exit")
}
