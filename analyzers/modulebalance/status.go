package modulebalance

import (
	"go/ast"
	"go/types"
	"slices"

	"github.com/hiplint/hiplint/internal/flow"
)

// statusArgKeys returns the load statuses that e, a call of a helper that
// turns a status into an error or status (check(res), newErr("op", res),
// status(res).error("op")), is built from: the status variables passed to
// it whose loads are still unchecked in s. Such helpers return nil (or the
// zero status) exactly when the status they were given is a success.
func (fa *funcAnalysis) statusArgKeys(s state, e ast.Expr) []any {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || fa.idx.Match(call) != nil || !isStatusType(fa.info.TypeOf(call)) {
		return nil
	}
	args := slices.Clone(call.Args)
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		args = append(args, sel.X)
	}
	var keys []any
	for _, arg := range args {
		id, ok := flow.StripConversions(fa.info, arg).(*ast.Ident) // status(res)
		if !ok {
			continue
		}
		obj := fa.info.ObjectOf(id)
		if _, isVar := obj.(*types.Var); !isVar || !isStatusType(obj.Type()) && !isStatusValue(obj.Type()) {
			continue
		}
		for _, h := range s {
			if h.b&pending != 0 && slices.Contains(h.status, any(obj)) && !slices.Contains(keys, any(obj)) {
				keys = append(keys, obj)
			}
		}
	}
	return keys
}

// isStatusValue reports whether t is an integer status (a C status enum
// under another name, or a Go newtype of one).
func isStatusValue(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsInteger != 0
}

// propagateStatus handles `err := check(res)`: err now says whether the
// loads whose status res holds succeeded.
func (fa *funcAnalysis) propagateStatus(s state, lhs, rhs ast.Expr) {
	id, ok := ast.Unparen(lhs).(*ast.Ident)
	if !ok || id.Name == "_" {
		return
	}
	keys := fa.statusArgKeys(s, rhs)
	if len(keys) == 0 {
		return
	}
	obj := fa.info.ObjectOf(id)
	for _, h := range s {
		if h.b&pending != 0 && slices.ContainsFunc(keys, func(k any) bool { return slices.Contains(h.status, k) }) {
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
