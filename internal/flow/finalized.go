package flow

import (
	"go/ast"
	"go/types"
)

// FinalizedVars returns the variables that body, closures left out, sets a
// finalizer or a cleanup on (IsFinalizerCall): the finalizer then owns what
// they hold.
func FinalizedVars(info *types.Info, body *ast.BlockStmt) []*types.Var {
	var out []*types.Var
	ast.Inspect(body, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok && isFinalizerCall(info, call) {
			if root := RootVar(info, call.Args[0]); root != nil {
				out = append(out, root)
			}
		}
		_, lit := n.(*ast.FuncLit)
		return !lit
	})
	return out
}

// panicking returns the functions of funcs that call panic in their own
// bodies (CallsPanic).
func panicking(info *types.Info, funcs []Func) map[*types.Func]bool {
	out := map[*types.Func]bool{}
	for _, f := range funcs {
		if obj := f.Object(info); obj != nil && callsPanic(info, f.Body) {
			out[obj] = true
		}
	}
	return out
}
