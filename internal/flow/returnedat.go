package flow

import "go/ast"

// ReturnedAt returns the operands that a body's own return statements
// (ReturnStmts) give for result i of n results, in source order, and
// whether every return statement gives each result: a naked return of
// named results, or return f() of a call with several, gives none.
func ReturnedAt(body *ast.BlockStmt, n, i int) (vals []ast.Expr, all bool) {
	all = true
	for _, ret := range ReturnStmts(body) {
		if len(ret.Results) != n {
			all = false
			continue
		}
		vals = append(vals, ret.Results[i])
	}
	return vals, all
}
