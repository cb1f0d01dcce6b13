package cgocall

import (
	"go/ast"
	"go/types"
)

// AnyCall returns, for a call of any C function (not only those in the API
// table), its C name, the user's argument expressions with cgo's temporaries
// resolved, and the C function's Go signature. It handles the direct call and
// the pointer-checking wrapper (func() { _cgo0 := x; _Cfunc_f(_cgo0) }()).
func AnyCall(info *types.Info, call *ast.CallExpr) (string, []ast.Expr, *types.Signature, bool) {
	inner, args := call, call.Args
	if lit, ok := ast.Unparen(call.Fun).(*ast.FuncLit); ok {
		if len(call.Args) != 0 || !IsWrapper(info, lit) {
			return "", nil, nil, false
		}
		inner = wrappedCall(info, lit.Body)
		if inner == nil {
			return "", nil, nil, false
		}
		temps := map[types.Object]ast.Expr{}
		collectTemps(info, lit.Body, temps)
		args = make([]ast.Expr, len(inner.Args))
		for i, a := range inner.Args {
			args[i] = resolve(info, a, temps, 0)
		}
	}
	name, ok := calleeName(info, inner)
	if !ok {
		return "", nil, nil, false
	}
	sig, _ := info.TypeOf(inner.Fun).(*types.Signature)
	if sig == nil {
		return "", nil, nil, false
	}
	return name, args, sig, true
}
