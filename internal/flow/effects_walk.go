package flow

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/hiplint/hiplint/internal/cgocall"
)

// Effects walks syntax in the order Go evaluates it and hands an analyzer
// what happens there to memory: each call after its function and arguments
// (a runtime call, Index.Match, after the user's argument expressions; a
// call of another C function, cgocall.AnyCall, after the user's arguments
// with cgo's wrapper seen through; any other call after its function and
// arguments), each function literal where it is written (not entered: an
// in-place closure, Index.InPlace, is for the analyzer to run through its
// own control flow, ClosureExits), and each host read of memory through a
// pointer, slice, map or array: x[i] and *x before their operands, and the
// operand of a range loop (Ranged) before itself. &x[i] takes an address:
// it reads nothing. CallsInOrder is the walk of calls alone, cgo's wrappers
// not seen through.
type Effects[S any] struct {
	Index *Index
	// Ranged: the operands of the range loops of the function walked
	// (RangeOperands).
	Ranged  map[ast.Expr]bool
	Lit     func(lit *ast.FuncLit, s S)
	Runtime func(c *cgocall.Call, s S)
	C       func(call *ast.CallExpr, name string, args []ast.Expr, sig *types.Signature, s S)
	Other   func(call *ast.CallExpr, s S)
	// Read: a host read of the memory x points into, at the index
	// expression or dereference at (at == x: a range loop's operand).
	// C and Read are optional: without C a call of another C function is
	// any other call (Other, after its function and arguments), without
	// Read no read is reported, and the walk is of the calls alone in
	// evaluation order (graphfree's).
	Read func(x ast.Expr, at ast.Node, s S)
	// Stored: the closure a call of a local variable runs (Index.StoredLit:
	// run := func() error {...}; run()), after the call's arguments, for
	// the analyzer to run as an in-place closure. Optional: without it the
	// call is any other call. With it, a method value's or expression's
	// call is handed to Other as the call of its method (Index.Bound).
	Stored func(lit *ast.FuncLit, s S)

	cur S // the state of the walk under way
}

// Walk walks n, calling the hooks with s.
func (w *Effects[S]) Walk(n ast.Node, s S) {
	// The walk is the Effects itself as an ast.Visitor, with s in cur:
	// no closures to allocate at each of the many walks of a function's
	// nodes. A hook may walk again (Lit runs an in-place closure's
	// control flow), so the outer state is put back after.
	prev := w.cur
	w.cur = s
	ast.Walk((*effectsVisitor[S])(w), n)
	w.cur = prev
}

type effectsVisitor[S any] Effects[S]

func (v *effectsVisitor[S]) walk(es ...ast.Expr) {
	for _, e := range es {
		ast.Walk(v, e)
	}
}

func (v *effectsVisitor[S]) Visit(node ast.Node) ast.Visitor {
	if node == nil {
		return nil
	}
	w, s := (*Effects[S])(v), v.cur
	if x, ok := node.(ast.Expr); ok && w.Read != nil && w.Ranged[x] {
		w.Read(x, x, s)
	}
	switch x := node.(type) {
	case *ast.FuncLit:
		w.Lit(x, s)
		return nil
	case *ast.CallExpr:
		if c := w.Index.Match(x); c != nil {
			v.walk(c.Args...)
			w.Runtime(c, s)
		} else if name, args, sig, ok := cgocall.AnyCall(w.Index.info, x); ok && w.C != nil {
			v.walk(args...)
			w.C(x, name, args, sig, s)
		} else if b := w.bound(x); b != nil {
			v.walk(x.Args...)
			w.Other(b, s)
		} else if lit := w.storedLit(x); lit != nil {
			v.walk(x.Args...)
			w.Stored(lit, s)
			w.Other(x, s)
		} else if lit, ok := ast.Unparen(x.Fun).(*ast.FuncLit); ok {
			v.walk(x.Args...) // func(v T) {...}(arg): the arguments, then the body
			v.walk(lit)
			w.Other(x, s)
		} else {
			v.walk(x.Fun)
			v.walk(x.Args...)
			w.Other(x, s)
		}
		return nil
	case *ast.UnaryExpr:
		if ix, ok := ast.Unparen(x.X).(*ast.IndexExpr); ok && x.Op == token.AND {
			v.walk(ix.X, ix.Index)
			return nil
		}
	case *ast.StarExpr:
		if w.Read != nil {
			w.Read(x.X, x, s)
		}
	case *ast.IndexExpr:
		if w.Read != nil {
			w.Read(x.X, x, s)
		}
	}
	return v
}

// bound is Index.Bound for the analyzers that run stored closures
// (Stored): a method value or expression is called as its method.
func (w *Effects[S]) bound(call *ast.CallExpr) *ast.CallExpr {
	if w.Stored == nil {
		return nil
	}
	return w.Index.Bound(call)
}

func (w *Effects[S]) storedLit(call *ast.CallExpr) *ast.FuncLit {
	if w.Stored == nil {
		return nil
	}
	return w.Index.StoredLit(call)
}

// RangeOperands returns the operands of the range loops under n.
func (x *Index) RangeOperands(n ast.Node) map[ast.Expr]bool {
	ops := map[ast.Expr]bool{}
	x.Walk(n, func(n ast.Node) bool {
		if r, ok := n.(*ast.RangeStmt); ok {
			ops[r.X] = true
		}
		return true
	})
	return ops
}
