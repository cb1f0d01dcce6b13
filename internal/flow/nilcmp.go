package flow

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/hiplint/hiplint/internal/cgocall"
)

// NilComparison reports whether e compares a value with nil (x == nil,
// nil != x), and returns the value and whether the operator is ==.
func NilComparison(info *types.Info, e ast.Expr) (val ast.Expr, eq, ok bool) {
	b, isBin := ast.Unparen(e).(*ast.BinaryExpr)
	if !isBin || b.Op != token.EQL && b.Op != token.NEQ {
		return nil, false, false
	}
	switch {
	case IsNil(info, b.Y):
		return b.X, b.Op == token.EQL, true
	case IsNil(info, b.X):
		return b.Y, b.Op == token.EQL, true
	}
	return nil, false, false
}

// ZeroComparison reports whether e compares a value with nil or the
// constant 0 (err != nil, 0 == r), and returns the value and whether the
// operator is ==.
func ZeroComparison(info *types.Info, e ast.Expr) (val ast.Expr, eq, ok bool) {
	b, isBin := ast.Unparen(e).(*ast.BinaryExpr)
	if !isBin || b.Op != token.EQL && b.Op != token.NEQ {
		return nil, false, false
	}
	switch {
	case isZero(info, b.Y):
		return b.X, b.Op == token.EQL, true
	case isZero(info, b.X):
		return b.Y, b.Op == token.EQL, true
	}
	return nil, false, false
}

// isZero reports whether e is nil or the constant 0.
func isZero(info *types.Info, e ast.Expr) bool {
	if IsNil(info, e) {
		return true
	}
	v, ok := cgocall.IntValue(info, e)
	return ok && v == 0
}
