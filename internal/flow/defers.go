package flow

import (
	"go/ast"
	"go/token"
	"slices"
)

// Defers returns the defer statements of body, not those of its closures,
// in source order.
func Defers(body *ast.BlockStmt) []*ast.DeferStmt {
	var out []*ast.DeferStmt
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.DeferStmt:
			out = append(out, n)
		}
		return true
	})
	return out
}

// A Deferred is a call a function deferred, as it runs at an exit.
type Deferred struct {
	Call *ast.CallExpr
	// Sure: the defer statement is one of the body's own statements, not
	// in a branch or loop, so every path to the exit registered it.
	Sure bool
}

// DefersAt returns the calls of body's defers (Defers) that run when the
// function returns at at (a return statement's position, ReplayExitsAt;
// token.NoPos: falling off the end of the body), in the order they run:
// the last registered first. A defer statement written before at may have
// been registered (Sure when on every path); one written after it was not,
// except in a loop that returns on a later iteration, which is missed.
func DefersAt(body *ast.BlockStmt, defers []*ast.DeferStmt, at token.Pos) []Deferred {
	var out []Deferred
	for _, d := range slices.Backward(defers) {
		if at == token.NoPos || d.Pos() < at {
			out = append(out, Deferred{Call: d.Call, Sure: slices.Contains(body.List, ast.Stmt(d))})
		}
	}
	return out
}
