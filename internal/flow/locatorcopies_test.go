package flow

import (
	"go/ast"
	"go/types"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
)

// TestLocatorCopies: a copy (got := <-ch after ch <- a, say) is located
// at the variable it copies.
func TestLocatorCopies(t *testing.T) {
	src := `package p
type S struct{ f int }
func f() int {
	a := S{}
	ch := make(chan S, 1)
	ch <- a
	got := <-ch
	return got.f
}
`
	pass, _ := fakePass(t, src)
	body := pass.Files[0].Decls[1].(*ast.FuncDecl).Body
	obj := func(name string) types.Object { return pass.TypesInfo.Defs[findIdent(body, name)] }
	copies := map[types.Object]types.Object{obj("got"): obj("a")}
	ret := body.List[len(body.List)-1].(*ast.ReturnStmt)
	l, ok := Locator{Info: pass.TypesInfo, Copies: copies}.Of(ret.Results[0])
	assert.True(t, ok)
	assert.Equal(t, "a.f", l.String())
	l, _ = Locator{Info: pass.TypesInfo}.Of(ret.Results[0])
	assert.Equal(t, "got.f", l.String())
}

// findIdent returns the first identifier named name in n.
func findIdent(n ast.Node, name string) *ast.Ident {
	var out *ast.Ident
	ast.Inspect(n, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && id.Name == name && out == nil {
			out = id
		}
		return out == nil
	})
	return out
}
