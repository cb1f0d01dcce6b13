package flow

import (
	"go/ast"
	"go/types"
)

// CleanupReleases calls yield with each expression that call, when it is a
// t.Cleanup (IsTestCleanup), registers a release of, and the call that
// releases it: what the registered closures release (Released), or the
// receiver of a registered method value whose method releases it
// (releasesRecv: t.Cleanup(m.Close)). The release runs when the test ends.
func CleanupReleases(x *Index, info *types.Info, call *ast.CallExpr, released func(*ast.CallExpr) []ast.Expr,
	releasesRecv func(*types.Func) bool, yield func(at *ast.CallExpr, e ast.Expr)) {
	if !IsTestCleanup(Callee(info, call)) {
		return
	}
	lits := func(lit *ast.FuncLit) { Released(x, lit.Body, released, yield) }
	registered(info, call, lits, func(recv ast.Expr, fn *types.Func) {
		if releasesRecv(fn) {
			yield(call, recv)
		}
	})
}

// CleanedUp reports whether body registers a t.Cleanup that releases a value
// rooted at one of objs (CleanupReleases): a test helper that returns it
// keeps the release, and its callers own nothing.
func CleanedUp(x *Index, info *types.Info, body *ast.BlockStmt, objs map[types.Object]bool,
	released func(*ast.CallExpr) []ast.Expr, releasesRecv func(*types.Func) bool) bool {
	return x.FirstCall(body, nil, func(call *ast.CallExpr) bool {
		if !IsTestCleanup(Callee(info, call)) {
			return false // CleanupReleases's own test, before found and its closure are made
		}
		found := false
		CleanupReleases(x, info, call, released, releasesRecv, func(_ *ast.CallExpr, e ast.Expr) {
			found = found || objs[RootVar(info, e)]
		})
		return found
	}) != nil
}
