package flow

import (
	"go/ast"
	"go/types"

	"github.com/hiplint/hiplint/internal/cgocall"
)

// addInPlace adds to out the user closures that call runs in place: the
// function literals passed to a call that is neither deferred nor started
// as a goroutine (ctx.Do(func() error {...}), sync.Once.Do, a locked-thread
// runner, t.Run) run during it, on the caller's variables, and so does a
// literal called where it is written (func() {...}()); analyzers
// see through them at the call (Index.InPlace). cgo's wrapper literals are
// not user closures, and callbacks that the callee keeps for later
// (finalizers, timers, sync.OnceFunc, t.Cleanup) are not in place. The caller leaves
// out deferred and go calls.
func addInPlace(info *types.Info, call *ast.CallExpr, out map[*ast.FuncLit]bool) {
	// A literal called where it is written (func() {...}()) runs there.
	if lit, ok := ast.Unparen(call.Fun).(*ast.FuncLit); ok && !cgocall.IsWrapper(info, lit) {
		out[lit] = true
	}
	if keepsCallback(info, call) {
		return
	}
	for _, arg := range call.Args {
		if lit, ok := ast.Unparen(arg).(*ast.FuncLit); ok && !cgocall.IsWrapper(info, lit) {
			out[lit] = true
		}
	}
}

// keepsCallback reports whether call hands its function arguments to
// something that runs them later rather than during the call.
func keepsCallback(info *types.Info, call *ast.CallExpr) bool {
	fn := Callee(info, call)
	if fn == nil || fn.Pkg() == nil {
		return false
	}
	// No string is built: this runs for every call of every function.
	switch fn.Pkg().Path() {
	case "runtime":
		return fn.Name() == "SetFinalizer" || fn.Name() == "AddCleanup"
	case "time", "context":
		return fn.Name() == "AfterFunc"
	case "sync":
		return fn.Name() == "OnceFunc" || fn.Name() == "OnceValue" || fn.Name() == "OnceValues"
	case "testing":
		return fn.Name() == "Cleanup" // runs when the test ends
	}
	return false
}

// ClosureExits runs p's transfer over a closure's body from the state entry,
// to a fixpoint, and returns the join of the states at its normal exits
// (return statements and the end of the body); ok is false when it never
// returns normally. Analyzers use it to see an in-place closure (Index.InPlace)
// as part of the calling function with the closure's own control flow: an
// early `return err` inside ctx.Do's closure skips what follows it.
//
// final, when not nil, is called with false before solving and with true
// before the last walk over the blocks at the fixpoint, so that an analyzer
// that reports only from a final walk can report once, from fixpoint states.
func ClosureExits[S any](x *Index, lit *ast.FuncLit, entry S, p Problem[S], final func(bool)) (out S, ok bool) {
	g := x.CFG(lit.Body)
	p.Entry = entry
	if final != nil {
		final(false)
	}
	in := Solve(g, p).Last() // the solution is not returned: walked in place
	if final != nil {
		final(true)
	}
	for _, b := range g.Blocks {
		s, reached := in.At(b)
		if !reached {
			continue
		}
		s = in.own(p, s)
		for _, n := range b.Nodes {
			s = p.Transfer(n, s)
		}
		if kind, _ := exitOf(x.info, b); kind == returnExit || kind == fallOff {
			if ok {
				out = p.Join(out, s)
			} else {
				out, ok = s, true
			}
		}
	}
	return out, ok
}
