package flow

import (
	"go/ast"
	"go/types"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
)

func TestBorrowedParams(t *testing.T) {
	c := check(t, `package p
type handle *int
var kept handle
func use(h handle) {}
func f(a, b handle, n int, c handle) {
	use(a)
	kept = b
	alias := c
	use(alias)
	_ = n
}
func g(a handle) {
	u := uintptr(0)
	alias := a
	kept = alias
	_ = u
}`)
	holds := func(t types.Type) bool { return t.String() == "p.handle" }
	borrowed := func(name string) []int {
		var fn *ast.FuncDecl
		for _, d := range c.file.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Name.Name == name {
				fn = fd
			}
		}
		sig := c.info.Defs[fn.Name].Type().(*types.Signature)
		aliases, defs := ParamAliases(nil, c.info, fn.Body, sig)
		// The calls of use are safe.
		return BorrowedParams(c.info, fn.Body, sig, holds, aliases, defs, func() []PosRange {
			var safe []PosRange
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				if call, ok := n.(*ast.CallExpr); ok && types.ExprString(call.Fun) == "use" {
					safe = append(safe, PosRange{call.Pos(), call.End()})
				}
				return true
			})
			return safe
		})
	}
	// a only in use; b stored; n not a handle; c through an alias only in use.
	assert.Equal(t, []int{0, 3}, borrowed("f"))
	// The alias of a escapes: a does.
	assert.Empty(t, borrowed("g"))
	// No parameter qualifies: safe is not called.
	assert.Empty(t, BorrowedParams(c.info, &ast.BlockStmt{}, types.NewSignatureType(nil, nil, nil, nil, nil, false), holds, nil, nil, func() []PosRange {
		t.Fatal("safe called")
		return nil
	}))
}
