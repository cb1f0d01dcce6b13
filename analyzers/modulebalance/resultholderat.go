package modulebalance

import (
	"github.com/hiplint/hiplint/internal/flow"
	"go/ast"
	"go/types"
)

// ResultHolderAt is ResultHolder for result i of call (-1: none, so no
// holder): in `v, err := f()` the variable that receives result i (none for
// the blank identifier), else where the call's value ends up.
func resultHolderAt(info *types.Info, body *ast.BlockStmt, call *ast.CallExpr, i int, inPlace func(*ast.FuncLit) bool) (holder any, ok bool) {
	if i < 0 {
		return nil, false
	}
	if as, ok := flow.Parent(body, call).(*ast.AssignStmt); ok && len(as.Rhs) == 1 && len(as.Lhs) > 1 {
		if i < len(as.Lhs) {
			if id, ok := as.Lhs[i].(*ast.Ident); ok && id.Name != "_" {
				return info.ObjectOf(id), true
			}
		}
		return nil, false
	}
	return flow.ResultHolder(info, body, call, inPlace)
}
