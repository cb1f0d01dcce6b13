package modulebalance

import (
	"fmt"
	"go/ast"
	"go/types"
	"slices"

	"github.com/hiplint/hiplint/internal/flow"
	"github.com/hiplint/hiplint/internal/hipapi"
)

// Launches is the fact that a function launches the function handles
// passed in the listed parameters (-1 is the receiver): as the kernel of a
// launch, directly or through a field of the parameter (k.fn of a Kernel
// value), or by handing them to a function that launches them. A call of
// it is a launch of what it passes there, and is checked as one
// (checkLaunch): a helper launching a handle whose module is gone fails
// like a launch written in place.
//
// A field that funcFields ties to a module field of the same value (p.entry
// taken from p.mod) is left out: launching it looks into that module, which
// Borrows.Uses already records.
type Launches struct{ Params []int }

func (*Launches) AFact()           {}
func (f *Launches) String() string { return fmt.Sprintf("launches%v", f.Params) }

// solveLaunches computes the package's Launches summaries, to a fixpoint
// (a wrapper launches what the helper it calls launches). It runs before
// the other summaries, which read it (usesOf).
func (a *analysis_) solveLaunches(funcs []flow.Func) {
	s := flow.Summaries[Launches]{Pass: a.pass, Index: a.idx, Analyze: a.summarizeLaunches,
		Relevant: func(fn flow.Func) bool { return fn.Decl != nil },
		Update:   func(obj *types.Func, f Launches) bool { return a.launches.Set(obj, f) }}
	s.Solve(funcs)
}

func (a *analysis_) summarizeLaunches(fn flow.Func) Launches {
	sig := fn.Signature(a.info)
	var out []int
	add := func(e ast.Expr) {
		if _, _, tied := a.funcField(e); tied || e == nil {
			return
		}
		v := flow.RootVar(a.info, e)
		if v == nil {
			return
		}
		for i := flow.Receiver; i < sig.Params().Len(); i++ {
			if p := flow.ParamVar(sig, i); p != nil && p == v && !slices.Contains(out, i) {
				out = append(out, i)
			}
		}
	}
	a.idx.Walk(fn.Body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		if c := a.idx.Match(call); c != nil {
			if c.Func.Role == hipapi.Launch {
				add(c.Arg(c.Func.Function))
			}
			return true
		}
		for _, e := range a.launchedArgs(call) {
			add(e)
		}
		return true
	})
	slices.Sort(out)
	return Launches{Params: out}
}

// launchedArgs returns the expressions call hands to a callee that
// launches them (Launches).
func (a *analysis_) launchedArgs(call *ast.CallExpr) []ast.Expr {
	fn := a.callee(call)
	if fn == nil {
		return nil
	}
	return a.idx.ArgsAt(call, a.launches.Get(fn).Params)
}

// launchedHandles returns the function handle expressions arg holds for a
// callee that launches it: arg itself, or the fields of a struct literal
// (Kernel{fn: f}, &Kernel{fn: f}) that wraps them.
func launchedHandles(arg ast.Expr) []ast.Expr {
	e := ast.Unparen(arg)
	if u, ok := e.(*ast.UnaryExpr); ok {
		e = ast.Unparen(u.X)
	}
	lit, ok := e.(*ast.CompositeLit)
	if !ok {
		return []ast.Expr{arg}
	}
	var out []ast.Expr
	for _, el := range lit.Elts {
		if kv, ok := el.(*ast.KeyValueExpr); ok {
			out = append(out, kv.Value)
		} else {
			out = append(out, el)
		}
	}
	return out
}
