package flow

import (
	"go/ast"
	"go/token"
)

// Assigned calls yield for each left-hand side that n writes when n is an
// assignment (= or :=) or a var declaration, in order, with the expression
// whose value it gets and which result of it: a call with several results
// gives each left-hand side its index, every other expression gives 0 for
// its first result. rhs is nil when the value is not an expression's (the
// ok of a comma-ok form, a var without an initializer). Operator
// assignments (p += off) write nothing new and yield nothing, as do other
// nodes.
//
// Analyzers evaluate every right-hand side before storing any of them, as
// Go does (a, b = b, a).
func Assigned(n ast.Node, yield func(lhs, rhs ast.Expr, result int)) {
	var lhs, rhs []ast.Expr
	switch n := n.(type) {
	case *ast.AssignStmt:
		if n.Tok != token.ASSIGN && n.Tok != token.DEFINE {
			return
		}
		lhs, rhs = n.Lhs, n.Rhs
	case *ast.ValueSpec:
		for _, id := range n.Names {
			lhs = append(lhs, id)
		}
		rhs = n.Values
	default:
		return
	}
	if len(lhs) == len(rhs) {
		for i, l := range lhs {
			yield(l, rhs[i], 0)
		}
		return
	}
	for i, l := range lhs {
		switch {
		case len(rhs) != 1:
			yield(l, nil, 0)
		case isCall(rhs[0]):
			yield(l, rhs[0], i)
		case i == 0:
			yield(l, rhs[0], 0) // v of v, ok := m[k], x.(T), <-ch
		default:
			yield(l, nil, 0)
		}
	}
}

func isCall(e ast.Expr) bool {
	_, ok := ast.Unparen(e).(*ast.CallExpr)
	return ok
}
