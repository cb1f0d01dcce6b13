package xnack

import (
	"go/ast"
	"go/types"
	"testing"

	"github.com/hiplint/hiplint/internal/flow"
	"github.com/hiplint/hiplint/internal/testenv"
	"github.com/hiplint/hiplint/internal/testenv/assert"
)

func TestNodeEvents(t *testing.T) {
	src := indexSrc + `
func g(p unsafe.Pointer) unsafe.Pointer { return p }

func h(p unsafe.Pointer) {
	x := 1
	_ = g(g(p))
	do(func() { g(nil) })
	_ = x
	return
	g(nil)
}
`
	c := testenv.TypeCheck(t, src)
	x := flow.NewIndex(c.Fset, []*ast.File{c.File}, c.Info)
	var body *ast.BlockStmt
	for _, fn := range x.Funcs() {
		if fn.Decl != nil && fn.Decl.Name.Name == "h" {
			body = fn.Body
		}
	}
	ev := &nodeEvents[string]{Index: x}
	ev.Emit = func(n ast.Node) {
		name := "lit"
		if call, ok := n.(*ast.CallExpr); ok {
			name = types.ExprString(call.Fun)
		}
		ev.Add(name)
	}
	got := map[string][]string{}
	for n, evs := range ev.Collect(x.CFG(body)) {
		got[c.Fset.Position(n.Pos()).String()] = evs
	}
	// Nodes without calls and the dead call after the return have none.
	at := func(n int) string { return c.Fset.Position(body.List[n].Pos()).String() }
	assert.Equal(t, map[string][]string{at(1): {"g", "g"}, at(2): {"lit", "do"}}, got)
}
