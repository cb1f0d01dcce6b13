package modulebalance

import (
	"go/ast"
	"go/types"
	"slices"

	"github.com/hiplint/hiplint/internal/flow"
)

// cleanedUpByTest reports whether body registers a t.Cleanup that unloads
// one of objs: a test helper that returns such a module keeps the unload,
// and its callers own nothing.
func (a *analysis_) cleanedUpByTest(body *ast.BlockStmt, objs map[types.Object]bool) bool {
	info := a.pass.TypesInfo
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if found || !ok || !flow.IsTestCleanup(a.callee(call)) {
			return !found
		}
		for _, arg := range call.Args {
			switch x := ast.Unparen(arg).(type) {
			case *ast.FuncLit:
				for root := range a.unloadedRoots(x.Body) {
					found = found || objs[root]
				}
			case *ast.SelectorExpr:
				if fn, ok := info.Uses[x.Sel].(*types.Func); ok && slices.Contains(a.unloadsOf(fn).Params, -1) {
					if root := flow.RootVar(info, x.X); root != nil && objs[root] {
						found = true
					}
				}
			}
		}
		return !found
	})
	return found
}
