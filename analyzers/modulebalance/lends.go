package modulebalance

import (
	"fmt"
	"go/ast"
	"go/types"
	"slices"
	"strings"

	"github.com/hiplint/hiplint/internal/diag"
	"github.com/hiplint/hiplint/internal/flow"
)

// Lends is the fact that a function calls a callback it is given (a
// parameter of function type) with a module whose unload it has already
// deferred: the callback only borrows the module (withModule(path,
// func(md *Module) error {...}) loads, defers md.Close() and calls f(md)).
// A closure passed there that unloads the module itself unloads it a
// second time when the helper returns.
type Lends struct{ Lent []Lent }

// Lent is one lent module: argument Arg of calls of parameter Func.
type Lent struct{ Func, Arg int }

func (*Lends) AFact() {}
func (f *Lends) String() string {
	var parts []string
	for _, l := range f.Lent {
		parts = append(parts, fmt.Sprintf("%d:%d", l.Func, l.Arg))
	}
	return "lends[" + strings.Join(parts, " ") + "]"
}

// lendsOf returns what fn lends its callbacks (calls of its parameters
// of function type, flow.CallsParam): a variable passed as it is whose
// unload fn deferred on every path before the call (a defer statement of
// the body itself, calling an unloader or a closure that unloads).
func (a *analysis_) lendsOf(fn flow.Func, sig *types.Signature) Lends {
	var calls []*ast.CallExpr
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok && flow.CallsParam(a.info, sig, call) {
			calls = append(calls, call)
		}
		return true
	})
	if len(calls) == 0 {
		return Lends{}
	}
	defers := flow.FuncDeferrals(a.pass, fn)
	var out Lends
	for _, call := range calls {
		param := slices.IndexFunc(sigParams(sig), func(p *types.Var) bool {
			return p == a.info.Uses[ast.Unparen(call.Fun).(*ast.Ident)]
		})
		deferred := map[types.Object]bool{}
		for _, d := range defers {
			if d.Call == nil || d.Stmt.Pos() > call.Pos() || !slices.Contains(fn.Body.List, d.Stmt) {
				continue
			}
			var n ast.Node = d.Call
			if lit, ok := ast.Unparen(d.Call.Fun).(*ast.FuncLit); ok && !a.idx.IsWrapper(lit) {
				n = lit.Body // defer func() { md.Close() }()
			}
			flow.Released(a.idx, n, a.unloadsOf, func(c *ast.CallExpr, m ast.Expr) {
				if v := flow.RootVar(a.info, m); v != nil && !a.idempotent(c, m) {
					deferred[v] = true
				}
			})
		}
		for i, arg := range call.Args {
			id, ok := flow.StripConversions(a.info, arg).(*ast.Ident)
			if v, _ := a.info.Uses[id].(*types.Var); ok && v != nil && deferred[v] && param >= 0 {
				l := Lent{Func: param, Arg: i}
				if !slices.Contains(out.Lent, l) {
					out.Lent = append(out.Lent, l)
				}
			}
		}
	}
	return out
}

// idempotent reports whether call unloads m behind a guard it clears
// (Unloads.Idempotent): a second call unloads nothing.
func (a *analysis_) idempotent(call *ast.CallExpr, m ast.Expr) bool {
	return slices.Contains(a.idx.ArgsAt(call, a.unloads.Get(a.callee(call)).Idempotent), m)
}

// sigParams returns sig's parameters.
func sigParams(sig *types.Signature) []*types.Var {
	return slices.Collect(sig.Params().Variables())
}

// litParams returns the objects of lit's parameters, in order (nil for
// unnamed ones).
func litParams(info *types.Info, lit *ast.FuncLit) []types.Object {
	var out []types.Object
	for _, f := range lit.Type.Params.List {
		if len(f.Names) == 0 {
			out = append(out, nil)
		}
		for _, id := range f.Names {
			out = append(out, info.Defs[id])
		}
	}
	return out
}

// lentUnloads reports the unloads, in the closures that call passes to a
// function that lends them a module (Lends), of that module: the function
// unloads it again when it returns. An idempotent unloader's call is no
// second unload.
func (fa *funcAnalysis) lentUnloads(call *ast.CallExpr, fn *types.Func) {
	for _, l := range fa.lends.Get(fn).Lent {
		lit, ok := ast.Unparen(fa.idx.ArgAt(call, l.Func)).(*ast.FuncLit)
		if !ok || fa.idx.IsWrapper(lit) {
			continue
		}
		params := litParams(fa.info, lit)
		if l.Arg >= len(params) || params[l.Arg] == nil {
			continue
		}
		p := params[l.Arg]
		flow.Released(fa.idx, lit.Body, fa.unloadsOf, func(c *ast.CallExpr, m ast.Expr) {
			if flow.RootVar(fa.info, m) == p && !fa.idempotent(c, m) {
				fa.reported.Reportf(DoubleUnload, c, []diag.Related{{Pos: fn.Pos(), Message: fn.Name() + " unloads it when the callback returns"}},
					"module %s is unloaded here and again by %s, which lends it to this closure and unloads it when the closure returns; leave the unload to %s",
					p.Name(), fn.Name(), fn.Name())
			}
		})
	}
}
