package xnack

import (
	"github.com/hiplint/hiplint/internal/flow"
	"go/ast"
	"go/types"
)

// returnAt is a return statement and the state a solve reached it in.
type returnAt[S any] struct {
	Ret *ast.ReturnStmt
	S   S
}

// nilReturns returns the states of the return statements among rets that
// return nil in error result i of a function with results, when every
// other one returns an error taken to be non-nil (nonNilError) there: the
// states in which the error being nil is all the caller learns. ok is
// false when a return returns something else (a call that may return nil,
// a named result) or is a bare return of named results.
func nilReturns[S any](info *types.Info, results *types.Tuple, rets []returnAt[S], i int) (nils []S, ok bool) {
	for _, r := range rets {
		switch {
		case len(r.Ret.Results) != results.Len():
			return nil, false
		case flow.IsNil(info, r.Ret.Results[i]):
			nils = append(nils, r.S)
		case !nonNilError(info, results, r.Ret.Results[i]):
			return nil, false
		}
	}
	return nils, true
}

// nonNilError reports whether an error expression returned by a function
// with results is taken to be non-nil: a new error (errors.New,
// fmt.Errorf, &E{}, E{}), or a variable other than a named result
// (returned after its != nil test). Other calls may return nil (return
// check(C.hipX(...))).
func nonNilError(info *types.Info, results *types.Tuple, e ast.Expr) bool {
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		v, ok := info.Uses[x].(*types.Var)
		for i := range results.Len() {
			if results.At(i) == v {
				return false // a named result: often still nil
			}
		}
		return ok
	case *ast.UnaryExpr, *ast.CompositeLit:
		return true
	case *ast.CallExpr:
		fn := flow.Callee(info, x)
		if fn == nil || fn.Pkg() == nil {
			return false
		}
		switch fn.Pkg().Path() + "." + fn.Name() {
		case "errors.New", "fmt.Errorf":
			return true
		}
	}
	return false
}
