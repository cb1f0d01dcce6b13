package xnack

import (
	"go/ast"
	"testing"

	"github.com/hiplint/hiplint/internal/flow"
	"github.com/hiplint/hiplint/internal/testenv/assert"
)

func TestLitsByDecl(t *testing.T) {
	src := `package p
var f = func() { _ = func() {} }
func g() {
	_ = func() { _ = func() {} }
}
func h() {}
`
	pass, _ := fakePass(t, src)
	var funcs []flow.Func
	ast.Inspect(pass.Files[0], func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncDecl:
			funcs = append(funcs, flow.Func{Decl: n, Body: n.Body})
		case *ast.FuncLit:
			funcs = append(funcs, flow.Func{Lit: n, Body: n.Body})
		}
		return true
	})
	byDecl, orphans := litsByDecl(funcs)
	assert.Len(t, orphans, 2, "the var's literal and the one inside it")
	var g, h *ast.FuncDecl
	for _, fn := range funcs {
		if fn.Decl != nil && fn.Decl.Name.Name == "g" {
			g = fn.Decl
		}
		if fn.Decl != nil && fn.Decl.Name.Name == "h" {
			h = fn.Decl
		}
	}
	lits := byDecl[g]
	assert.Len(t, lits, 2)
	assert.Less(t, lits[0].Pos(), lits[1].Pos(), "outer first, in source order")
	assert.Empty(t, byDecl[h])
}
