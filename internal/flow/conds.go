package flow

import (
	"go/ast"
	"go/token"
)

// implied calls yield with each operand whose value a branch on cond
// decides, and that value: cond itself when it is none of the below; the
// operand of ! with the value flipped; both operands of && when the branch
// is taken (both held) and of || when it is not (both failed). Operands of
// a && that failed or a || that held are decided by neither alone, so they
// are not yielded. Operands are yielded without their parentheses. The
// recursion follows the user's expression, so it is bounded by its size.
func implied(cond ast.Expr, taken bool, yield func(e ast.Expr, holds bool)) {
	switch c := ast.Unparen(cond).(type) {
	case *ast.UnaryExpr:
		if c.Op == token.NOT {
			implied(c.X, !taken, yield)
			return
		}
	case *ast.BinaryExpr:
		if c.Op == token.LAND || c.Op == token.LOR {
			if (c.Op == token.LAND) == taken {
				implied(c.X, taken, yield)
				implied(c.Y, taken, yield)
			}
			return
		}
	}
	yield(ast.Unparen(cond), taken)
}
