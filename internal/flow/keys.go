package flow

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
)

// StableKeys names the elements of maps and slices in one function body by
// keys that keep their value in it: constants, and variables the body never
// assigns (a range variable changes each iteration). Its Index method is a
// Locator.Index hook: mods["saxpy"] is ".mods[saxpy]", mods[name] is
// "[name]" when name is never assigned, and other elements are no location.
type StableKeys struct {
	info     *types.Info
	body     *ast.BlockStmt
	assigned map[*types.Var]bool // cache of MayChange
}

// NewStableKeys returns the stable keys of body.
func NewStableKeys(info *types.Info, body *ast.BlockStmt) *StableKeys {
	return &StableKeys{info: info, body: body, assigned: map[*types.Var]bool{}}
}

// Index names the element x by its key, "[key]", when the key is stable.
func (k *StableKeys) Index(x *ast.IndexExpr) (string, bool) {
	if tv, ok := k.info.Types[x.Index]; ok && tv.Value != nil {
		if tv.Value.Kind() == constant.String {
			return "[" + constant.StringVal(tv.Value) + "]", true
		}
		return "[" + tv.Value.ExactString() + "]", true
	}
	id, ok := ast.Unparen(x.Index).(*ast.Ident)
	if !ok {
		return "", false
	}
	v, ok := k.info.Uses[id].(*types.Var)
	if !ok {
		return "", false
	}
	a, seen := k.assigned[v]
	if !seen {
		a = mayChange(k.info, k.body, v)
		k.assigned[v] = a
	}
	return "[" + id.Name + "]", !a
}

// mayChange reports whether body may change v: assigns it, declares it in a
// range clause, increments or decrements it, or takes its address.
func mayChange(info *types.Info, body ast.Node, v *types.Var) bool {
	is := func(e ast.Expr) bool {
		id, ok := ast.Unparen(e).(*ast.Ident)
		return ok && (info.Uses[id] == v || info.Defs[id] == v)
	}
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				found = found || is(l)
			}
		case *ast.RangeStmt:
			found = found || n.Key != nil && is(n.Key) || n.Value != nil && is(n.Value)
		case *ast.IncDecStmt:
			found = found || is(n.X)
		case *ast.UnaryExpr:
			found = found || n.Op == token.AND && is(n.X)
		}
		return !found
	})
	return found
}
