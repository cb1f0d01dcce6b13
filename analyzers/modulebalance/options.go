package modulebalance

import (
	"go/ast"
	"go/types"
	"slices"

	"github.com/hiplint/hiplint/internal/flow"
)

// funcValueBorrows returns the arguments of call, a call through a value
// of a named function type of the package, that every function the
// package makes of that type borrows (flow.FuncTypeValues): o(e) in a loop
// over functional options configures the engine being built and leaves its
// module with the caller, who must still unload it on an option's error.
// None when the type's values are not all known.
func (a *analysis_) funcValueBorrows(call *ast.CallExpr) []ast.Expr {
	n, _ := types.Unalias(a.info.TypeOf(call.Fun)).(*types.Named)
	if n == nil || n.Obj().Pkg() != a.pass.Pkg || flow.IsConversion(a.info, call) {
		return nil
	}
	params, done := a.optionBorrows[n.Obj()]
	if !done {
		fns, known := a.idx.FuncTypeValues(n)
		for i, f := range fns {
			if !known {
				break
			}
			b := a.summarizeFunc(f).borrows.Params
			if i == 0 {
				params = b
				continue
			}
			params = slices.DeleteFunc(params, func(p int) bool { return !slices.Contains(b, p) })
		}
		flow.Put(&a.optionBorrows, n.Obj(), params)
	}
	return a.idx.ArgsAt(call, params)
}
