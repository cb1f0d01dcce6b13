package flow

import (
	"go/ast"
)

// The Index lists the calls and function literals of the package's user
// files in source order (the order of ast.Inspect), each with the index
// just past the entries inside it, so that a walk can skip a literal it
// does not enter; each function body is a range of the list. Analyzers walk
// each body for calls many times (the relevance filters at every summary
// round and again when reporting, three analyzers over the same
// functions); the list is made in the walk that builds the Index, and a
// walk over it touches only the calls, not every node.
type callEntry struct {
	node ast.Node // *ast.CallExpr or *ast.FuncLit
	end  int32
}

// FirstCall is the function FirstCall over the Index's list of body's
// calls; for a body that is not one of the package's functions it is the
// function FirstCall.
func (x *Index) FirstCall(body *ast.BlockStmt, enter func(*ast.FuncLit) bool, match func(*ast.CallExpr) bool) *ast.CallExpr {
	x.build()
	r, ok := x.bodies[body]
	if !ok {
		return FirstCall(body, enter, match)
	}
	for i := r[0]; i < r[1]; {
		switch n := x.entries[i].node.(type) {
		case *ast.FuncLit:
			if enter != nil && !enter(n) {
				i = x.entries[i].end
				continue
			}
		case *ast.CallExpr:
			if match(n) {
				return n
			}
		}
		i++
	}
	return nil
}
