package flow

import (
	"go/ast"
	"go/types"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
)

func TestRootsOfThroughRangeIsDefinition(t *testing.T) {
	c := check(t, `package p
type T struct{ h *int }
func f(a T, mods []*int) {
	var b *int
	b = a.h
	for _, m := range mods {
		_ = m
	}
	_ = b
}`)
	fn := c.file.Decls[1].(*ast.FuncDecl)
	decl := fn.Body.List[0].(*ast.DeclStmt).Decl.(*ast.GenDecl).Specs[0].(*ast.ValueSpec)
	assign := fn.Body.List[1].(*ast.AssignStmt)
	rs := fn.Body.List[2].(*ast.RangeStmt)
	m := rs.Body.List[0].(*ast.AssignStmt).Rhs[0]

	roots := RootsOf(c.info, func(yield func(ast.Expr)) {
		yield(assign.Rhs[0]) // a.h: a
		yield(m)
		yield(&ast.BasicLit{}) // no variable
	})
	var names []string
	for v := range roots {
		names = append(names, v.Name())
	}
	assert.ElementsMatch(t, []string{"a", "m"}, names)

	assert.Equal(t, "mods", types.ExprString(ThroughRange(c.info, fn.Body, m)))
	assert.Same(t, assign.Rhs[0], ThroughRange(c.info, fn.Body, assign.Rhs[0]))

	assert.True(t, IsDefinition(c.info, decl.Names[0]))
	assert.True(t, IsDefinition(c.info, rs.Value))
	assert.False(t, IsDefinition(c.info, assign.Lhs[0])) // b = ...: assigned again
	assert.False(t, IsDefinition(c.info, assign.Rhs[0]))
}
