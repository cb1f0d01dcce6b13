package modulebalance

import (
	"go/ast"

	"github.com/hiplint/hiplint/internal/flow"
	"golang.org/x/tools/go/analysis"
)

// withGetters returns lc resolving the calls of getters (flow.Getters,
// which the analyzer requires) to the location whose value they return:
// k.mod for k.Module() (the receiver's or argument's location, with the
// getter's path), defaultMod for Default() (flow.PkgVarGetterLoc). A
// module a getter hands out is then the handle it reads.
func withGetters(pass *analysis.Pass, lc flow.Locator) flow.Locator {
	lc.Getter = func(call *ast.CallExpr) (flow.Loc, bool) {
		r, ok := flow.GetterOf(pass, flow.Callee(pass.TypesInfo, call))
		if !ok {
			return flow.PkgVarGetterLoc(pass, call)
		}
		arg := r.Arg(pass.TypesInfo, call)
		if arg == nil {
			return flow.Loc{}, false
		}
		l, ok := lc.Of(arg) // lc resolves getters too: k.Inner().Module()
		l.Path += r.Path
		return l, ok
	}
	return lc
}
