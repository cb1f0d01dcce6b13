package flow

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// Closures that run later, in the function that writes them. A closure
// that runs in place (Index.InPlace) is walked where it is written; one
// held in a local variable for good runs where the variable is called
// (Index.StoredLit, Effects.Stored). The two kinds here run later still,
// but on the same function's variables, so that an analyzer runs them on
// its states at the point where they run, through their own control flow
// (ClosureExits), and sees the provenance and state of what they capture
// as the function leaves it:
//
//   - deferred closures and a test's Cleanup closures run at each exit
//     (FuncDeferrals, RunDeferred), on the variables as they are then (a
//     deferred closure reads a named result after `return nil, err` set
//     it);
//   - a goroutine's closure (GoLit) runs at some point after its go
//     statement; an analyzer that checks what a call does to a value, not
//     when, runs it at the go statement on a copy of the state.
//
// Each such closure is also a function of its own (Index.Funcs), analyzed
// without what it captures: an analyzer reports what it finds in it from
// either walk once.

// FuncDeferrals returns what fn registers to run when it returns (Defers):
// its defer statements, and its Cleanup closures when fn is a test (a Test,
// Benchmark, Example or Fuzz function of a _test.go file, EntryOf's
// TestEntry), whose Cleanup closures run when it has returned. A helper's
// Cleanup closures run when the test that called it ends, not at its exits.
func FuncDeferrals(pass *analysis.Pass, fn Func) []Deferral {
	test := false
	if fn.Decl != nil {
		obj, _ := pass.TypesInfo.Defs[fn.Decl.Name].(*types.Func)
		test = EntryOf(obj, fn.Decl, strings.HasSuffix(pass.Fset.Position(fn.Decl.Pos()).Filename, "_test.go")) == TestEntry
	}
	return defersOf(pass.TypesInfo, fn.Body, test)
}

// RunDeferred runs, at an exit of body at at (ReplayExitsAt's position;
// token.NoPos: the end of the body), the deferrals registered before it
// (DefersAt), in the order they run, on s: a deferred closure (defer
// func() {...}()) and a test's Cleanup closure with lit, any other deferred
// call with call (nil: not run). A deferral registered on some paths only
// (in a branch or a loop) runs on clone(s): it is checked, but the state
// the exit leaves does not count on it. cgo's wrapper literals
// (isWrapper) are calls, not closures.
func RunDeferred[S any](body *ast.BlockStmt, defers []Deferral, at token.Pos, s S, clone func(S) S,
	isWrapper func(*ast.FuncLit) bool, lit func(*ast.FuncLit, S), call func(*ast.CallExpr, S)) {
	for _, d := range defersAt(body, defers, at) {
		on := s
		if !d.Sure {
			on = clone(s)
		}
		l := d.Lit // a test's Cleanup closure
		if d.Call != nil {
			l, _ = ast.Unparen(d.Call.Fun).(*ast.FuncLit)
		}
		switch {
		case l != nil && !isWrapper(l):
			lit(l, on)
		case call != nil && d.Call != nil:
			call(d.Call, on)
		}
	}
}

// GoLit returns the closure a go statement starts (go func() {...}()), or
// nil; cgo's wrapper literals (isWrapper) are none.
func GoLit(g *ast.GoStmt, isWrapper func(*ast.FuncLit) bool) *ast.FuncLit {
	if lit, ok := ast.Unparen(g.Call.Fun).(*ast.FuncLit); ok && !isWrapper(lit) {
		return lit
	}
	return nil
}
