package flow

import (
	"go/ast"
	"go/types"
)

// Released calls yield with each call in n (closures included) and each
// expression that released says the call releases (frees, destroys,
// unloads), in source order. The walk is x's (Index.Walk; x may be nil).
func Released(x *Index, n ast.Node, released func(*ast.CallExpr) []ast.Expr, yield func(call *ast.CallExpr, e ast.Expr)) {
	x.Walk(n, func(x ast.Node) bool {
		if call, ok := x.(*ast.CallExpr); ok {
			for _, e := range released(call) {
				yield(call, e)
			}
		}
		return true
	})
}

// ReleasedRoots returns the variables whose values the calls in n release
// (Released): x for x, x.f, x[i] or &x.
func ReleasedRoots(x *Index, info *types.Info, n ast.Node, released func(*ast.CallExpr) []ast.Expr) map[types.Object]bool {
	return RootsOf(info, func(yield func(ast.Expr)) {
		Released(x, n, released, func(_ *ast.CallExpr, e ast.Expr) { yield(e) })
	})
}
