package modulebalance

import (
	"go/ast"
	"go/types"

	"github.com/hiplint/hiplint/internal/flow"
)

// forwarded returns the ReturnsModule of a function that returns what a
// constructor returns, as it is (`return Load(cs)` in `func Open(path
// string) (*Module, error)`): a wrapper of a wrapper is a constructor too.
func (a *analysis_) forwarded(body *ast.BlockStmt, sig *types.Signature) *ReturnsModule {
	for _, ret := range flow.ReturnStmts(body) {
		if len(ret.Results) != 1 {
			continue
		}
		call, ok := ast.Unparen(ret.Results[0]).(*ast.CallExpr)
		if !ok {
			continue
		}
		fn := a.callee(call)
		r, ok := a.returns.Of(fn)
		if !ok || fn.Signature().Results().Len() != sig.Results().Len() {
			continue
		}
		return &ReturnsModule{Result: r.Result, Status: flow.LastResult(sig, flow.IsStatus)}
	}
	return nil
}
