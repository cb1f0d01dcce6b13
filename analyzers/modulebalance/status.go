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
	return flow.StatusSources(fa.info, e, isStatusType, func(c *ast.CallExpr) bool { return fa.idx.Match(c) != nil })
}

// propagateStatus handles `err := check(res)`: err now says whether the
// loads whose status res holds succeeded.
func (fa *funcAnalysis) propagateStatus(s state, lhs, rhs ast.Expr) {
	id, ok := ast.Unparen(lhs).(*ast.Ident)
	if !ok || id.Name == "_" {
		return
	}
	keys := fa.statusSources(rhs)
	if len(keys) == 0 {
		return
	}
	obj := fa.info.ObjectOf(id)
	for _, h := range s {
		if h.b&pending != 0 && slices.ContainsFunc(keys, func(k types.Object) bool { return slices.Contains(h.status, any(k)) }) {
			h.status = flow.AppendNew(h.status, any(obj))
		}
	}
}

// discarded reports whether the module that call, a call of a module
// constructor, returns is dropped on the spot: the call is a statement of
// its own, its module result is assigned to the blank identifier, or it is
// the receiver of a method that only borrows it
// (MustLoad(img).GetFunction("f")).
func (fa *funcAnalysis) discarded(call *ast.CallExpr, r ReturnsModule) bool {
	p := fa.parent(call)
	for paren, ok := p.(*ast.ParenExpr); ok; paren, ok = p.(*ast.ParenExpr) {
		p = fa.parent(paren)
	}
	switch p := p.(type) {
	case *ast.ExprStmt:
		return true
	case *ast.AssignStmt:
		if len(p.Rhs) != 1 || r.Result >= len(p.Lhs) {
			return false
		}
		id, ok := p.Lhs[r.Result].(*ast.Ident)
		return ok && id.Name == "_"
	case *ast.SelectorExpr:
		method, ok := fa.parent(p).(*ast.CallExpr)
		if !ok || method.Fun != p {
			return false
		}
		fn := fa.callee(method)
		return fn != nil && slices.Contains(fa.borrowsOf(fn), -1) && !slices.Contains(fa.unloadsOf(fn).Params, -1)
	}
	return false
}
