package modulebalance

import (
	"go/ast"
	"go/types"
	"slices"

	"github.com/hiplint/hiplint/internal/flow"
)

// statusSources returns the load statuses a helper call e is built from
// (flow.StatusSources); runtime calls are no helpers.
func (fa *funcAnalysis) statusSources(e ast.Expr) []types.Object {
	return flow.StatusSources(fa.info, e, flow.IsStatus, func(c *ast.CallExpr) bool { return fa.idx.Match(c) != nil })
}

// propagateStatus handles `err := check(res)`: err now says whether the
// loads whose status res holds succeeded.
func (fa *funcAnalysis) propagateStatus(s state, lhs, rhs ast.Expr) {
	id, ok := ast.Unparen(lhs).(*ast.Ident)
	if !ok || id.Name == "_" {
		return
	}
	keys := fa.statusSources(rhs) // none: nothing changes
	obj := fa.info.ObjectOf(id)
	for l, h := range s {
		if h.b&pending != 0 && slices.ContainsFunc(keys, func(k types.Object) bool { return slices.Contains(h.status, any(k)) }) {
			own(s, l).add(nil, []any{obj})
		}
	}
}
