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
	if as, ok := n.(*ast.AssignStmt); ok && as.Tok != token.ASSIGN && as.Tok != token.DEFINE {
		return
	}
	lhs, rhs, ok := Sides(n)
	if !ok {
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

// Sides returns the left and right sides of an assignment (any operator)
// or a var declaration; ok is false for other nodes.
func Sides(n ast.Node) (lhs, rhs []ast.Expr, ok bool) {
	switch n := n.(type) {
	case *ast.AssignStmt:
		return n.Lhs, n.Rhs, true
	case *ast.ValueSpec:
		for _, id := range n.Names {
			lhs = append(lhs, id)
		}
		return lhs, n.Values, true
	}
	return nil, nil, false
}

// Loops returns the extents of body's for and range loops, and the range
// statement of each range clause's key and value (the nodes the CFG gives
// for them).
func (x *Index) Loops(body ast.Node) (loops []PosRange, rangeOf map[ast.Expr]*ast.RangeStmt) {
	rangeOf = map[ast.Expr]*ast.RangeStmt{}
	x.Walk(body, func(n ast.Node) bool {
		switch l := n.(type) {
		case *ast.ForStmt:
			loops = append(loops, PosRange{Pos: l.Pos(), End: l.End()})
		case *ast.RangeStmt:
			loops = append(loops, PosRange{Pos: l.Pos(), End: l.End()})
			for _, e := range []ast.Expr{l.Key, l.Value} {
				if e != nil {
					rangeOf[e] = l
				}
			}
		}
		return true
	})
	return loops, rangeOf
}
