package xnack

import (
	"go/ast"
	"go/token"
)

// ImpliedFold grades what a branch on cond being taken proves, for an
// analysis that grades what one operand having a value proves (leaf, given
// the operand without its parentheses): ! flips the value; an && taken or
// an || not taken decided both operands, so both combines their grades;
// an && not taken or an || taken decided only that one of them had the
// value, so either combines them (Implied yields the first kind alone).
// Both operands are graded, left first.
func impliedFold[T any](cond ast.Expr, taken bool, leaf func(e ast.Expr, holds bool) T, both, either func(a, b T) T) T {
	switch c := ast.Unparen(cond).(type) {
	case *ast.UnaryExpr:
		if c.Op == token.NOT {
			return impliedFold(c.X, !taken, leaf, both, either)
		}
	case *ast.BinaryExpr:
		if c.Op == token.LAND || c.Op == token.LOR {
			x, y := impliedFold(c.X, taken, leaf, both, either), impliedFold(c.Y, taken, leaf, both, either)
			if (c.Op == token.LAND) == taken {
				return both(x, y)
			}
			return either(x, y)
		}
	}
	return leaf(ast.Unparen(cond), taken)
}
