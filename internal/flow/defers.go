package flow

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
)

// A Deferral is something a function registers to run when it returns: a
// defer statement, or a closure a test registers with Cleanup
// (t.Cleanup(func() {...})), which runs when the test and its deferred
// calls have returned.
type Deferral struct {
	Stmt ast.Stmt      // the defer statement, or the statement of the Cleanup call
	Call *ast.CallExpr // the deferred call; nil for a Cleanup
	Lit  *ast.FuncLit  // the closure a Cleanup runs; nil for a defer
}

// defersOf returns the deferrals of body, not those of its closures, in
// source order; its Cleanup closures only with cleanups, for the body of a
// test itself (EntryOf's TestEntry): a helper's Cleanup runs when the test
// that called it ends, not when the helper returns.
func defersOf(info *types.Info, body *ast.BlockStmt, cleanups bool) []Deferral {
	var out []Deferral
	var stmt ast.Stmt
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.DeferStmt:
			out = append(out, Deferral{Stmt: n, Call: n.Call})
		case *ast.ExprStmt:
			stmt = n
		case *ast.CallExpr:
			if fn := Callee(info, n); cleanups && fn != nil && fn.Name() == "Cleanup" && fn.Pkg() != nil && fn.Pkg().Path() == "testing" &&
				len(n.Args) == 1 && stmt != nil && stmt.(*ast.ExprStmt).X == n {
				if lit, ok := ast.Unparen(n.Args[0]).(*ast.FuncLit); ok {
					out = append(out, Deferral{Stmt: stmt, Lit: lit})
				}
			}
		}
		return true
	})
	return out
}

// A Deferred is a call or closure a function deferred, as it runs at an
// exit.
type Deferred struct {
	Call *ast.CallExpr // the deferred call, or nil
	Lit  *ast.FuncLit  // a Cleanup's closure, or nil
	// Sure: the statement that registered it is one of the body's own
	// statements, not in a branch or loop, so every path to the exit
	// registered it.
	Sure bool
}

// defersAt returns the deferrals (defersOf) that run when the function
// returns at at (a return statement's position, ReplayExitsAt;
// token.NoPos: falling off the end of the body), in the order they run:
// deferred calls, the last registered first, then Cleanup closures, the
// last registered first. A statement written before at may have
// registered its call (Sure when on every path); one written after it did
// not, except in a loop that returns on a later iteration, which is
// missed.
func defersAt(body *ast.BlockStmt, defers []Deferral, at token.Pos) []Deferred {
	var out, cleanups []Deferred
	for _, d := range slices.Backward(defers) {
		if at == token.NoPos || d.Stmt.Pos() < at {
			r := Deferred{Call: d.Call, Lit: d.Lit, Sure: slices.Contains(body.List, d.Stmt)}
			if d.Call != nil {
				out = append(out, r)
			} else {
				cleanups = append(cleanups, r)
			}
		}
	}
	return append(out, cleanups...)
}
