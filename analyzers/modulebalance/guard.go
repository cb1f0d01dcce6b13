package modulebalance

import (
	"go/ast"
	"go/types"
	"slices"

	"github.com/hiplint/hiplint/internal/flow"
)

// cleanedUpByTest reports whether body registers a t.Cleanup that unloads
// one of objs: a test helper that returns such a module keeps the unload,
// and its callers own nothing.
func (a *analysis_) cleanedUpByTest(body *ast.BlockStmt, objs map[types.Object]bool) bool {
	return flow.FirstCall(body, nil, func(call *ast.CallExpr) bool {
		found := false
		if flow.IsTestCleanup(a.callee(call)) {
			a.cleanupUnloads(call, func(_ *ast.CallExpr, m ast.Expr) { found = found || objs[flow.RootVar(a.info, m)] })
		}
		return found
	}) != nil
}

// cleanupUnloads calls yield with each module that call, a t.Cleanup,
// registers an unload of, and the call that unloads it: the unloads in a
// closure, or a method value that unloads its receiver (t.Cleanup(m.Close)).
func (a *analysis_) cleanupUnloads(call *ast.CallExpr, yield func(at *ast.CallExpr, m ast.Expr)) {
	lits := func(lit *ast.FuncLit) { flow.Released(lit.Body, a.unloadsOf, yield) }
	flow.Registered(a.info, call, lits, func(recv ast.Expr, fn *types.Func) {
		if slices.Contains(a.unloads.Get(fn).Params, flow.Receiver) {
			yield(call, recv)
		}
	})
}
