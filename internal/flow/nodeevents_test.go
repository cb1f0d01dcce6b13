package flow

import (
	"go/ast"
	"go/types"
	"testing"

	"github.com/stretchr/testify/assert"
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
	c := check(t, src)
	x := NewIndex(c.fset, []*ast.File{c.file}, c.info)
	var body *ast.BlockStmt
	for _, fn := range x.Funcs() {
		if fn.Decl != nil && fn.Decl.Name.Name == "h" {
			body = fn.Body
		}
	}
	ev := &NodeEvents[string]{Index: x}
	ev.Emit = func(n ast.Node) {
		name := "lit"
		if call, ok := n.(*ast.CallExpr); ok {
			name = types.ExprString(call.Fun)
		}
		ev.Add(name)
	}
	got := map[string][]string{}
	for n, evs := range ev.Collect(x.CFG(body)) {
		got[c.fset.Position(n.Pos()).String()] = evs
	}
	// Nodes without calls and the dead call after the return have none.
	at := func(n int) string { return c.fset.Position(body.List[n].Pos()).String() }
	assert.Equal(t, map[string][]string{at(1): {"g", "g"}, at(2): {"lit", "do"}}, got)
}
