package modulebalance

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/hiplint/hiplint/internal/flow"
)

// elementKey returns, for mods[i] in the body of `for i := range mods`
// (with no value variable), the location of the key variable i: the
// element each iteration visits, as the value variable m stands for it in
// `for _, m := range mods`. An unload of mods[i] in the loop unloads every
// element, like an unload of m (everyUnloaded, listedUnloaded and
// flow.SameElements take mods[i] with the loop's key as the loop's
// element). Only unloads use it: a load into &mods[i] stays a load into
// the set's element, which its owner holds.
func (fa *funcAnalysis) elementKey(e ast.Expr) (flow.Loc, bool) {
	ix, ok := ast.Unparen(flow.StripConversions(fa.info, e)).(*ast.IndexExpr)
	if !ok {
		return flow.Loc{}, false
	}
	id, ok := ast.Unparen(ix.Index).(*ast.Ident)
	if !ok {
		return flow.Loc{}, false
	}
	k, ok := fa.info.Uses[id].(*types.Var)
	if !ok || !flow.Declares(fa.fn.Body, k) {
		return flow.Loc{}, false
	}
	var found bool
	ast.Inspect(fa.fn.Body, func(n ast.Node) bool {
		rs, ok := n.(*ast.RangeStmt)
		if found || !ok {
			return !found
		}
		key, _ := rs.Key.(*ast.Ident)
		value, _ := rs.Value.(*ast.Ident)
		if rs.Tok == token.DEFINE && key != nil && fa.info.Defs[key] == k && (value == nil || value.Name == "_") &&
			rs.Body.Pos() <= ix.Pos() && ix.End() <= rs.Body.End() &&
			types.ExprString(ast.Unparen(rs.X)) == types.ExprString(ast.Unparen(ix.X)) {
			found = true
		}
		return !found
	})
	if !found {
		return flow.Loc{}, false
	}
	return flow.Loc{Root: k}, true
}
