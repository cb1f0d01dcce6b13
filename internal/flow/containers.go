package flow

import (
	"go/ast"
	"go/token"
	"go/types"
)

// AddedTo recognizes an assignment lhs = rhs that adds values to a map or
// slice without replacing what it holds: c[k] = v, and c = append(c, v...)
// with the values listed (not spread from another slice: append(c, vs...)).
// It returns the container and the values added. A store into an array
// element is not an addition.
func AddedTo(info *types.Info, lhs, rhs ast.Expr) (container ast.Expr, vals []ast.Expr, ok bool) {
	if ix, isIndex := ast.Unparen(lhs).(*ast.IndexExpr); isIndex {
		if !isContainer(info.TypeOf(ix.X)) {
			return nil, nil, false
		}
		return ix.X, []ast.Expr{rhs}, true
	}
	call, isCall := ast.Unparen(rhs).(*ast.CallExpr)
	if !isCall || call.Ellipsis != token.NoPos || len(call.Args) < 2 || !isBuiltin(info, call, "append") ||
		types.ExprString(ast.Unparen(call.Args[0])) != types.ExprString(ast.Unparen(lhs)) {
		return nil, nil, false
	}
	return lhs, call.Args[1:], true
}
