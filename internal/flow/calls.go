package flow

import (
	"go/ast"
	"go/types"
	"sort"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"
)

// Callee returns the static callee of call: a function or a concrete
// method, or nil (builtins, conversions, calls through values).
func Callee(info *types.Info, call *ast.CallExpr) *types.Func {
	fn, _ := typeutil.Callee(info, call).(*types.Func)
	return fn
}

// argAt returns the argument for parameter i of call, where -1 is the
// receiver of a method call; nil when there is none. Facts name parameters
// this way.
func argAt(call *ast.CallExpr, i int) ast.Expr {
	if i == -1 {
		if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
			return sel.X
		}
		return nil
	}
	if i >= 0 && i < len(call.Args) {
		return call.Args[i]
	}
	return nil
}

// paramIndex returns the index of v among sig's parameters, -1 for the
// receiver.
func paramIndex(sig *types.Signature, v types.Object) (int, bool) {
	if sig.Recv() != nil && sig.Recv() == v {
		return -1, true
	}
	for i := range sig.Params().Len() {
		if sig.Params().At(i) == v {
			return i, true
		}
	}
	return 0, false
}

// IsNil reports whether e is the predeclared nil.
func IsNil(info *types.Info, e ast.Expr) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return false
	}
	_, isNil := info.Uses[id].(*types.Nil)
	return isNil
}

// StripConversions removes parentheses and type conversions around e
// (unsafe.Pointer(p), C.hipDeviceptr_t(p), uintptr(p)).
func StripConversions(info *types.Info, e ast.Expr) ast.Expr {
	for range 16 {
		e = ast.Unparen(e)
		call, ok := e.(*ast.CallExpr)
		if !ok || len(call.Args) != 1 {
			return e
		}
		if tv, ok := info.Types[call.Fun]; !ok || !tv.IsType() {
			return e
		}
		e = call.Args[0]
	}
	return e
}

// importedFact reports whether fn belongs to another package and that package
// exported a fact of fact's type for it, which it then fills in. Methods of
// generic types and their instances share the fact of their origin. A
// function of the package being analyzed has no imported fact: its summary is
// the analyzer's own.
func importedFact(pass *analysis.Pass, fn *types.Func, fact analysis.Fact) bool {
	return fn != nil && fn.Pkg() != pass.Pkg && pass.ImportObjectFact(fn.Origin(), fact)
}

// Parent returns n's parent in the tree under root, or nil when n is root or
// not under it. It goes down from root through the child whose extent holds
// n's (a binary search in a block's statements), so no map of every node's
// parent is built: analyzers ask about a few nodes of a function (a load's
// statement, its enclosing loop), and such a map per function was a third of
// an analyzer's allocation (docs/performance.md). A function of 20,000
// statements costs a search of its top-level block per query, not a walk.
func Parent(root, n ast.Node) ast.Node {
	if n == nil || root == nil || n == root {
		return nil
	}
	pos, end := n.Pos(), n.End()
	holds := func(x ast.Node) bool { return x.Pos() <= pos && end <= x.End() }
	if !holds(root) {
		return nil
	}
	for cur := root; ; {
		var next ast.Node
		if b, ok := cur.(*ast.BlockStmt); ok {
			// The last statement starting at or before n.
			i := sort.Search(len(b.List), func(i int) bool { return b.List[i].Pos() > pos }) - 1
			if i >= 0 && holds(b.List[i]) {
				next = b.List[i]
			}
		} else {
			ast.Inspect(cur, func(x ast.Node) bool {
				if x == cur {
					return true
				}
				if next == nil && x != nil && (x == n || holds(x)) {
					next = x
				}
				return false
			})
		}
		switch next {
		case nil:
			return nil
		case n:
			return cur
		}
		cur = next
	}
}
