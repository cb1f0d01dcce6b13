package flow

import (
	"go/ast"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestJoinedExit: the states of the normal exits joined (panics are no
// exit), and none for a function that always panics.
func TestJoinedExit(t *testing.T) {
	src := "package p\nfunc f(c, d bool) int {\n\tif c {\n\t\treturn 1\n\t}\n\tif d {\n\t\tpanic(0)\n\t}\n\tx := 2\n\t_ = x\n\treturn 3\n}\nfunc g() {\n\tpanic(0)\n}\n"
	pass, _ := fakePass(t, src)
	p := Problem[int]{
		Clone: func(n int) int { return n },
		Join:  func(a, b int) int { return a*10 + b },
		Equal: func(a, b int) bool { return a == b },
		Transfer: func(n ast.Node, s int) int {
			if _, ok := n.(*ast.AssignStmt); ok {
				return s + 1
			}
			return s
		},
	}
	exit := func(i int) (int, bool) {
		g := CFG(pass.TypesInfo, pass.Files[0].Decls[i].(*ast.FuncDecl).Body)
		return JoinedExit(pass.TypesInfo, g, Solve(g, p), p)
	}
	s, ok := exit(0)
	assert.True(t, ok)
	assert.Contains(t, []int{2, 20}, s, "return 1 (0) joined with return 3 (2), in either order")
	_, ok = exit(1)
	assert.False(t, ok, "a function that always panics has no normal exit")
}
