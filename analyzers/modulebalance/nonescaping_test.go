package modulebalance

import (
	"go/ast"
	"go/types"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
)

func TestNonEscapingUses(t *testing.T) {
	c := check(t, `package p
type M struct {
	h    *int
	size int
	keep *int
}
var sink *int
func use(*int) {}
func f(m *M) {
	if m.h == nil {}
	m.keep = m.h
	_ = m.size
	sink = m.h
	use(m.h)
}`)
	fn := c.File.Decls[len(c.File.Decls)-1].(*ast.FuncDecl)
	holds := func(t types.Type) bool { return t.String() == "*int" || t.String() == "*p.M" }
	var others []string
	safe := nonEscapingUses(c.Info, fn.Body, holds, func(n ast.Node, safe *ranges) {
		if call, ok := n.(*ast.CallExpr); ok {
			safe.Add(call.Args...) // use borrows
			others = append(others, types.ExprString(call))
		}
	})
	var got []string
	for _, r := range safe {
		for _, st := range fn.Body.List {
			ast.Inspect(st, func(n ast.Node) bool {
				if e, ok := n.(ast.Expr); ok && e.Pos() == r.Pos && e.End() == r.End {
					got = append(got, types.ExprString(e))
					return false
				}
				return true
			})
		}
	}
	// Not sink = m.h: the store into a package variable lets m.h escape.
	assert.Equal(t, []string{"m.h == nil", "m.keep", "m.size", "m.h"}, got)
	assert.Equal(t, []string{"use(m.h)"}, others)
}
