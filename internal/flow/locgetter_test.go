package flow

import (
	"go/ast"
	"go/types"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
)

// TestLocatorGetter: a Locator with a Getter hook resolves the calls it
// answers to their location, with the path selected from the result after
// the getter's own path; Keep applies to the location's root; without the
// hook a call is no location.
func TestLocatorGetter(t *testing.T) {
	c := check(t, `package p
type Module struct{ h uintptr }
type Engine struct{ mod *Module }
var eng Engine
func Default() *Module { return eng.mod }
func other() *Module { return nil }
func f() {
	_ = Default()
	_ = Default().h
	_ = other()
}`)
	eng := c.pkg.Scope().Lookup("eng").(*types.Var)
	getter := func(call *ast.CallExpr) (Loc, bool) {
		if id, ok := call.Fun.(*ast.Ident); ok && id.Name == "Default" {
			return Loc{eng, ".mod"}, true
		}
		return Loc{}, false
	}
	fn := c.file.Decls[len(c.file.Decls)-1].(*ast.FuncDecl)
	var exprs []ast.Expr
	for _, st := range fn.Body.List {
		exprs = append(exprs, st.(*ast.AssignStmt).Rhs[0])
	}
	of := func(lc Locator, e ast.Expr) string {
		if l, ok := lc.Of(e); ok {
			return l.String()
		}
		return "none"
	}
	lc := Locator{Info: c.info, Getter: getter}
	assert.Equal(t, "eng.mod", of(lc, exprs[0]))
	assert.Equal(t, "eng.mod.h", of(lc, exprs[1]))
	assert.Equal(t, "none", of(lc, exprs[2]))
	assert.Equal(t, "none", of(Locator{Info: c.info}, exprs[0]))
	kept := Locator{Info: c.info, Getter: getter, Keep: func(v *types.Var) bool { return v != eng }}
	assert.Equal(t, "none", of(kept, exprs[1]))
}
