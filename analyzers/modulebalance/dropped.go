package modulebalance

import (
	"github.com/hiplint/hiplint/internal/flow"
	"go/ast"
	"go/types"
)

// DroppedResult reports whether result i of call, a call in body, is
// dropped on the spot: the call is a statement of its own, its result i is
// assigned to the blank identifier, or it is the receiver of a method call
// whose callee drops says lets go of it (a method that only borrows it:
// MustLoad(img).GetFunction("f")).
func droppedResult(info *types.Info, body *ast.BlockStmt, call *ast.CallExpr, i int, drops func(*types.Func) bool) bool {
	p := flow.Parent(body, call)
	for paren, ok := p.(*ast.ParenExpr); ok; paren, ok = p.(*ast.ParenExpr) {
		p = flow.Parent(body, paren)
	}
	switch p := p.(type) {
	case *ast.ExprStmt:
		return true
	case *ast.AssignStmt:
		if len(p.Rhs) != 1 || i >= len(p.Lhs) {
			return false
		}
		id, ok := p.Lhs[i].(*ast.Ident)
		return ok && id.Name == "_"
	case *ast.SelectorExpr:
		method, ok := flow.Parent(body, p).(*ast.CallExpr)
		if !ok || method.Fun != p {
			return false
		}
		fn := flow.Callee(info, method)
		return fn != nil && drops(fn)
	}
	return false
}
