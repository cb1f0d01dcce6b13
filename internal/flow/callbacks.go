package flow

import (
	"go/ast"
	"go/types"
)

// Closures passed to helpers. A helper that takes a function and calls it
// with a value (func withBuffer(p unsafe.Pointer, f func(unsafe.Pointer)
// error) error { return f(p) }) hands that value to the closure its caller
// passes: withBuffer(C.malloc(n), func(p unsafe.Pointer) error { return
// launch(p) }) launches C.malloc memory. Sources learns it once for every
// analysis built on it (Trace, Origins): each parameter of a function
// literal passed to a function of the package is given what the helper
// passes it, the caller's argument where the helper passes one of its
// own parameters (its receiver included) on as it is, else the helper's
// own expression. The literal is written once, at that call, so this is as
// precise as the helper; a named function passed as a value is left
// alone (its parameters would take every caller's values).

// A callbackCall is a call, in a helper's body, of one of the helper's
// parameters of function type.
type callbackCall struct {
	Call  *ast.CallExpr
	Param int // the parameter called
}

// callbackCalls returns the calls in body (closures in it included: a
// helper may run its callback in a goroutine or a deferred closure) of
// sig's parameters of function type, in source order.
func callbackCalls(info *types.Info, body *ast.BlockStmt, sig *types.Signature) []callbackCall {
	var out []callbackCall
	ast.Inspect(body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		id, ok := ast.Unparen(call.Fun).(*ast.Ident)
		if !ok {
			return true
		}
		if i, ok := paramIndex(sig, info.Uses[id]); ok && i >= 0 {
			if _, isFunc := sig.Params().At(i).Type().Underlying().(*types.Signature); isFunc {
				out = append(out, callbackCall{Call: call, Param: i})
			}
		}
		return true
	})
	return out
}

// bindCallbacks gives the parameters of the function literals that call
// passes to a function of the package (s.funcs) what that function passes
// them.
func (s *Sources) bindCallbacks(info *types.Info, call *ast.CallExpr) {
	fn := Callee(info, call)
	if fn == nil {
		return
	}
	d := s.funcs[fn.Origin()]
	if d == nil {
		return
	}
	sig := fn.Origin().Signature()
	if sig.Variadic() {
		return // the arguments past the last parameter are a slice
	}
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		if x := info.Selections[sel]; x != nil && x.Kind() == types.MethodExpr {
			return // T.M(recv, ...): the arguments are shifted
		}
	}
	for _, cb := range callbackCalls(info, d.Body, sig) {
		lit, ok := ast.Unparen(argAt(call, cb.Param)).(*ast.FuncLit)
		if !ok {
			continue
		}
		params := funcLitParams(info, lit)
		for i, e := range cb.Call.Args {
			if i >= len(params) || params[i] == nil {
				break
			}
			src := Source{Expr: e}
			if id, ok := StripConversions(info, e).(*ast.Ident); ok {
				if j, ok := paramIndex(sig, info.Uses[id]); ok {
					src = Source{Expr: argAt(call, j)}
				}
			}
			if src.Expr != nil {
				s.Of[params[i]] = append(s.Of[params[i]], src)
			}
		}
	}
}

// funcLitParams returns the objects of lit's parameters, in order (nil
// for unnamed ones).
func funcLitParams(info *types.Info, lit *ast.FuncLit) []types.Object {
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
