package flow

import (
	"go/ast"
	"go/types"
)

// RootsOf returns the variables (RootVar) that the expressions walk yields
// are rooted at: the variables a body unloads, loads into, frees.
func RootsOf(info *types.Info, walk func(yield func(ast.Expr))) map[types.Object]bool {
	out := map[types.Object]bool{}
	walk(func(e ast.Expr) {
		if root := RootVar(info, e); root != nil {
			out[root] = true
		}
	})
	return out
}

// ThroughRange returns what a range loop in body ranges over when e is
// rooted at the loop's value variable (for _, m := range mods: mods, whose
// elements e stands for), else e.
func ThroughRange(info *types.Info, body *ast.BlockStmt, e ast.Expr) ast.Expr {
	if root := RootVar(info, e); root != nil {
		if x, ok := rangedExprs(info, body)[root]; ok {
			return x
		}
	}
	return e
}

// IsDefinition reports whether e is an identifier that e's statement
// declares (var m, m := ...): a new variable, not one assigned again.
func IsDefinition(info *types.Info, e ast.Expr) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	return ok && info.Defs[id] != nil
}
