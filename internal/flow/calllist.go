package flow

import (
	"go/ast"
)

// The Index lists the nodes of the package's user files that its walks
// look for (listed below: calls, function literals, assignments and
// declarations, composite literals, returns, loops, go and defer, sends and
// type switches) in source
// order, the order of ast.Inspect, each with the index just past the
// entries inside it, so that a walk can skip a node's subtree; each file
// and each function body is a range of the list. Analyzers walk each body
// many times (the relevance filters at every summary round and again when
// reporting, provenance twice, three analyzers over the same functions) for
// a few of these kinds; the list is made in the one walk that builds the
// Index, and a walk over it touches only the listed nodes, not every
// identifier and selector.
type listEntry struct {
	node ast.Node
	end  int32
}

// A span is a file's or function body's range of the list, and a body's
// range of the Index's list of references (funcRefs) and of the fields and
// package variables it names (StoreDeps).
type span struct {
	entries, refs, objs [2]int32
}

// listed reports whether the Index lists n.
func listed(n ast.Node) bool {
	switch n.(type) {
	case *ast.CallExpr, *ast.FuncLit, *ast.AssignStmt, *ast.ValueSpec, *ast.CompositeLit,
		*ast.ReturnStmt, *ast.RangeStmt, *ast.ForStmt, *ast.GoStmt, *ast.DeferStmt,
		*ast.SendStmt, *ast.TypeSwitchStmt:
		return true
	}
	return false
}

// Walk calls f for each listed node under n, n included, in the order of
// ast.Inspect; where f returns false, the nodes inside that one are
// skipped. A file or function body of the package is walked over the
// Index's list, any other node (or any node, for a nil Index) with
// ast.Inspect.
func (x *Index) Walk(n ast.Node, f func(ast.Node) bool) {
	var sp span
	ok := false
	if x != nil {
		x.build()
		sp, ok = x.ranges[n]
	}
	r := sp.entries
	if !ok {
		ast.Inspect(n, func(n ast.Node) bool { return n == nil || !listed(n) || f(n) })
		return
	}
	for i := r[0]; i < r[1]; {
		if !f(x.entries[i].node) {
			i = x.entries[i].end
			continue
		}
		i++
	}
}

// FirstCall is the function FirstCall over the Index's list when n is a
// file or body of the package (Walk; x may be nil).
func (x *Index) FirstCall(n ast.Node, enter func(*ast.FuncLit) bool, match func(*ast.CallExpr) bool) *ast.CallExpr {
	if x != nil {
		// Over the list without Walk: its callback, a closure over the
		// call found, was two allocations at every call (the relevance
		// filters ask of every function, in every summary round).
		x.build()
		if sp, ok := x.ranges[n]; ok {
			for i := sp.entries[0]; i < sp.entries[1]; {
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
	}
	var found *ast.CallExpr
	x.Walk(n, func(n ast.Node) bool {
		if found != nil {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return enter == nil || enter(n)
		case *ast.CallExpr:
			if match(n) {
				found = n
				return false
			}
		}
		return true
	})
	return found
}
