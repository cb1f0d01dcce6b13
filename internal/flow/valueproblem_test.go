package flow

import (
	"go/ast"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestValueProblem: a problem over a comparable state solves with the
// Clone and Equal ValueProblem fills in, to the same fixpoint.
func TestValueProblem(t *testing.T) {
	type st struct{ n, max int }
	src := "package p\nfunc f(c bool) {\n\tx := 0\n\tfor c {\n\t\tx = 1\n\t}\n\t_ = x\n}\n"
	pass, _ := fakePass(t, src)
	p := ValueProblem(Problem[st]{
		Join: func(a, b st) st { return st{max(a.n, b.n), max(a.max, b.max)} },
		Transfer: func(n ast.Node, s st) st {
			if _, ok := n.(*ast.AssignStmt); ok && s.n < 3 {
				s.n++
				s.max = max(s.max, s.n)
			}
			return s
		},
	})
	assert.Equal(t, st{1, 2}, p.Clone(st{1, 2}))
	assert.True(t, p.Equal(st{1, 2}, st{1, 2}))
	assert.False(t, p.Equal(st{1, 2}, st{1, 3}))
	g := CFG(pass.TypesInfo, pass.Files[0].Decls[0].(*ast.FuncDecl).Body)
	s, ok := JoinedExit(pass.TypesInfo, g, Solve(g, p), p)
	assert.True(t, ok)
	assert.Equal(t, 3, s.max, "the loop's assignments are counted to the bound: the solve iterated to a fixpoint")
}
