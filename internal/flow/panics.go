package flow

import (
	"go/ast"
	"go/types"
)

// callsPanic reports whether body calls the builtin panic itself, outside
// the function literals it holds.
func callsPanic(info *types.Info, body *ast.BlockStmt) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		if call, ok := n.(*ast.CallExpr); ok && BuiltinName(info, call) == "panic" {
			found = true
		}
		return !found
	})
	return found
}

// Recovers reports whether body defers, in one of its top-level statements,
// a closure that calls recover and does not panic again: a panic inside the
// function then ends in a normal return.
func Recovers(info *types.Info, body *ast.BlockStmt) bool {
	for _, st := range body.List {
		d, ok := st.(*ast.DeferStmt)
		if !ok {
			continue
		}
		lit, ok := ast.Unparen(d.Call.Fun).(*ast.FuncLit)
		if !ok {
			continue
		}
		recovered, repanics := false, false
		ast.Inspect(lit.Body, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				switch BuiltinName(info, call) {
				case "recover":
					recovered = true
				case "panic":
					repanics = true
				}
			}
			return true
		})
		if recovered && !repanics {
			return true
		}
	}
	return false
}
