package modulebalance

import (
	"go/ast"
	"go/types"
	"slices"

	"github.com/hiplint/hiplint/internal/flow"
)

// checkRecoveredPanic reports the modules still loaded when a helper called
// in n panics, or n is a panic statement, and the function's deferred
// recover turns the panic into a return: the unloads after the call never run. Modules that n itself loads
// are left out (must(C.hipModuleLoad(...)) panics only when the load failed).
func (fa *funcAnalysis) checkRecoveredPanic(n ast.Node, s state) {
	if _, isDefer := n.(*ast.DeferStmt); isDefer || fa.reported == nil || !fa.recovers {
		return
	}
	// A function of this package that n calls and that panics itself (a
	// must or Result helper).
	call := fa.panics.In(fa.info, fa.idx.Funcs(), n)
	what := ""
	switch {
	case call != nil:
		what = fa.callee(call).Name() + " panics"
	case explicitPanic(fa.info, n):
		// panic(...) itself: the recover returns from here.
		what = "this panic is recovered"
	default:
		return
	}
	r := flow.PosRange{Pos: n.Pos(), End: n.End()}
	// must(C.hipModuleUnload(m)): the unload ran before must panics.
	unloadedHere := map[flow.Loc]bool{}
	flow.Released(fa.idx, n, fa.unloadsOf, func(_ *ast.CallExpr, m ast.Expr) {
		for _, k := range fa.handlesAt(s, m) {
			unloadedHere[k] = true
		}
	})
	for _, k := range sortedByName(s) {
		h := s[k]
		// A module whose load is not checked yet may be what the helper
		// checks (mustOK(res)): leave it out.
		if !unloadedHere[k] && h.b&(live|given) == loaded && !slices.ContainsFunc(h.sites, func(i int) bool { return r.Contains(fa.sites.List[i].call.Pos()) }) {
			fa.reportLeak(k, h, n.Pos(), "not unloaded when "+what+" and the deferred recover returns; defer the unload")
		}
	}
}

// explicitPanic reports whether n is a statement calling the builtin panic.
func explicitPanic(info *types.Info, n ast.Node) bool {
	es, ok := n.(*ast.ExprStmt)
	if !ok {
		return false
	}
	call, ok := ast.Unparen(es.X).(*ast.CallExpr)
	return ok && flow.BuiltinName(info, call) == "panic"
}
