package flow

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/hiplint/hiplint/internal/cgocall"
)

// SameElements reports whether second, an expression in body, names an
// element that first, the element of each iteration of an earlier range
// loop over a slice, array or map, has already named: that loop visits
// every element, so whatever it released, second finds released.
//
// first is the value variable of its loop (for _, p := range ptrs) or the
// operand indexed by its key (ptrs[i]), or an expression rooted at either
// through fields, method calls, dereferences or slicing (p.buf,
// p.Values()), in a plain statement of the loop's
// own body (not in a branch or closure), and that body neither skips an
// iteration nor leaves the loop for the code after it (break, continue,
// goto); it may return or panic, which no path reaching second does
// (if err != nil { return err } after each copy). second is
// either the element of a later range loop over the same variable (or a
// field path of it), named the same way and reached before anything in
// that loop's body leaves or skips, or an element of it indexed directly
// (cache["main"]) after the first loop. The first loop is a statement of a
// block that holds second after it, so that every path to second ran it;
// nothing outside that loop's range clause assigns, appends to, deletes
// from, clears, passes on or takes the address of the ranged variable from
// the first loop's body to second.
//
// A forward analysis joins the state before a loop with the state of its
// iterations: a release of each element in the loop is one on some paths
// only after it (the loop may run no iteration), which analyzers do not
// report again. But a slice the first loop found empty is empty after it:
// a later loop releases again, and a later use uses, what it released.
func SameElements(info *types.Info, body *ast.BlockStmt, first, second ast.Expr) bool {
	first, second = elementOperand(first), elementOperand(second)
	// Cheap tests first: both name a variable declared in body (the loop's
	// own), or second an element; most releases and reads do not.
	if !declaredIn(info, body, first) {
		return false
	}
	if _, ok := second.(*ast.IndexExpr); !ok && !declaredIn(info, body, second) {
		return false
	}
	l1, _ := elementLoop(info, body, first, true)
	if l1 == nil || l1.End() > second.Pos() || !visitsEvery(l1.Body.List) {
		return false
	}
	x1 := ast.Unparen(l1.X)
	root := RootVar(info, constSliced(info, x1))
	if root == nil {
		return false
	}
	var x2 ast.Expr
	if l2, i2 := elementLoop(info, body, second, true); l2 != nil {
		if !skipsNone(l2.Body.List[:i2]) {
			return false
		}
		x2 = ast.Unparen(l2.X)
	} else if ix, ok := second.(*ast.IndexExpr); ok && !inClosure(body, second.Pos()) {
		x2 = ast.Unparen(ix.X)
	}
	if x2 == nil || RootVar(info, constSliced(info, x2)) != root || types.ExprString(x1) != types.ExprString(x2) {
		return false
	}
	return dominates(body, l1, second.Pos()) && !changedBetween(info, body, root, l1.Body.Pos(), second.Pos())
}

// declaredIn reports whether e is a variable declared in body, or an
// element indexed by one (a range loop's value or key).
func declaredIn(info *types.Info, body *ast.BlockStmt, e ast.Expr) bool {
	if ix, ok := e.(*ast.IndexExpr); ok {
		e = ast.Unparen(ix.Index)
	}
	id, ok := e.(*ast.Ident)
	if !ok {
		return false
	}
	v, ok := info.Uses[id].(*types.Var)
	return ok && body.Pos() <= v.Pos() && v.Pos() < body.End()
}

// elementOperand returns what e is rooted at through fields, method
// calls, dereferences, addresses and slicing (d.buf, d.Values(), *d, &d,
// d[1:] are d's), stopping at an element indexed on a variable or a field
// path of one (xs[i], p.xs[i]).
func elementOperand(e ast.Expr) ast.Expr {
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.SelectorExpr:
			e = x.X
		case *ast.CallExpr:
			sel, ok := ast.Unparen(x.Fun).(*ast.SelectorExpr)
			if !ok {
				return x
			}
			e = sel.X
		case *ast.StarExpr:
			e = x.X
		case *ast.UnaryExpr:
			if x.Op != token.AND {
				return x
			}
			e = x.X
		case *ast.SliceExpr:
			e = x.X
		case *ast.IndexExpr:
			if isPath(x.X) {
				return x
			}
			e = x.X
		default:
			return x
		}
	}
}

// isPath reports whether e is an identifier or a selection path on one.
func isPath(e ast.Expr) bool {
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.Ident:
			return true
		case *ast.SelectorExpr:
			e = x.X
		default:
			return false
		}
	}
}

// skipsNone reports whether no statement of list leaves it or skips to the
// next iteration of the loop it is in.
func skipsNone(list []ast.Stmt) bool {
	for _, st := range list {
		if leaves(st) || continues(st) {
			return false
		}
	}
	return true
}

// visitsEvery reports whether a loop body of statements list runs to its
// end in every iteration of the paths that go on after the loop: it has
// no break, continue or goto (outside closures). A return or a panic
// leaves the function, so no path after the loop took it.
func visitsEvery(list []ast.Stmt) bool {
	for _, st := range list {
		branches := false
		ast.Inspect(st, func(n ast.Node) bool {
			switch n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.BranchStmt:
				branches = true
			}
			return !branches
		})
		if branches {
			return false
		}
	}
	return true
}

// elementLoop returns the range loop of body whose element e names, and
// the index in its body of the plain statement holding e (or the if or
// switch statement whose init or tag holds it, or the go statement whose
// closure holds it so: plainHolder). wrappers: e may
// be in a closure cgo generated around a call (cgocall.IsWrapper), such as
// the argument of C.hipModuleUnload(m).
func elementLoop(info *types.Info, body *ast.BlockStmt, e ast.Expr, wrappers bool) (*ast.RangeStmt, int) {
	var loop *ast.RangeStmt
	idx := -1
	ast.Inspect(body, func(n ast.Node) bool {
		if loop != nil {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.RangeStmt:
			if !(n.Body.Pos() <= e.Pos() && e.End() <= n.Body.End()) {
				return false
			}
			for k, st := range n.Body.List {
				if st.Pos() <= e.Pos() && e.End() <= st.End() {
					if g, ok := st.(*ast.GoStmt); ok {
						// go func() { ...; copy(p); ... }(): the goroutine
						// each iteration starts runs the statement, when
						// nothing before it in its body returns; it is
						// what a wait for the goroutines joins.
						lit, ok := ast.Unparen(g.Call.Fun).(*ast.FuncLit)
						if !ok || len(g.Call.Args) > 0 {
							return true
						}
						for j, inner := range lit.Body.List {
							if holds(inner, e) {
								if plainHolder(inner, e) && skipsNone(lit.Body.List[:j]) && namesElement(info, n, e) && !inUserClosure(info, inner, e.Pos()) {
									loop, idx = n, k
								}
								break
							}
						}
						return false
					}
					if !plainHolder(st, e) {
						return true // deeper: a loop in a branch of this one
					}
					if namesElement(info, n, e) && !inClosure(st, e.Pos()) || wrappers && namesElement(info, n, e) && !inUserClosure(info, st, e.Pos()) {
						loop, idx = n, k
					}
					return false
				}
			}
		}
		return true
	})
	return loop, idx
}

// constSliced returns what x slices when its bounds are constants
// (reps[1:], which two loops that spell it alike range over alike), else x.
func constSliced(info *types.Info, x ast.Expr) ast.Expr {
	sl, ok := x.(*ast.SliceExpr)
	if !ok {
		return x
	}
	for _, b := range []ast.Expr{sl.Low, sl.High, sl.Max} {
		if b != nil && info.Types[b].Value == nil {
			return x
		}
	}
	return ast.Unparen(sl.X)
}

// plainHolder reports whether st, a statement of a loop body holding e,
// runs e whenever it runs: a plain statement, or an if or switch
// statement whose init or tag holds e.
func plainHolder(st ast.Stmt, e ast.Expr) bool {
	switch st := st.(type) {
	case *ast.ExprStmt, *ast.AssignStmt, *ast.DeclStmt:
		return true
	case *ast.IfStmt: // the init runs in every iteration: if err := f(p); err != nil
		return holds(st.Init, e)
	case *ast.SwitchStmt:
		return holds(st.Init, e) || holds(st.Tag, e)
	}
	return false
}

// holds reports whether e lies inside n (a nil n holds nothing).
func holds(n ast.Node, e ast.Expr) bool {
	return n != nil && n.Pos() <= e.Pos() && e.End() <= n.End()
}

// namesElement reports whether e is loop's value variable, or its operand
// indexed by its key variable.
func namesElement(info *types.Info, loop *ast.RangeStmt, e ast.Expr) bool {
	if loop.Tok != token.DEFINE {
		return false
	}
	varOf := func(x ast.Expr) types.Object {
		if id, ok := x.(*ast.Ident); ok && id.Name != "_" {
			return info.ObjectOf(id)
		}
		return nil
	}
	switch e := e.(type) {
	case *ast.Ident:
		v := varOf(loop.Value)
		return v != nil && info.Uses[e] == v
	case *ast.IndexExpr:
		k := varOf(loop.Key)
		id, ok := ast.Unparen(e.Index).(*ast.Ident)
		return k != nil && ok && info.Uses[id] == k &&
			types.ExprString(ast.Unparen(e.X)) == types.ExprString(ast.Unparen(loop.X))
	}
	return false
}

// inUserClosure is inClosure but for the closures cgo generated around
// calls.
func inUserClosure(info *types.Info, st ast.Node, pos token.Pos) bool {
	in := false
	ast.Inspect(st, func(n ast.Node) bool {
		if lit, ok := n.(*ast.FuncLit); ok && lit.Pos() <= pos && pos < lit.End() && !cgocall.IsWrapper(info, lit) {
			in = true
		}
		return !in
	})
	return in
}

func inClosure(st ast.Node, pos token.Pos) bool {
	in := false
	ast.Inspect(st, func(n ast.Node) bool {
		if lit, ok := n.(*ast.FuncLit); ok && lit.Pos() <= pos && pos < lit.End() {
			in = true
		}
		return !in
	})
	return in
}

// dominates reports whether st is a statement of a block (or case clause)
// of body whose later statements hold pos: every path to pos ran st.
func dominates(body *ast.BlockStmt, st ast.Stmt, pos token.Pos) bool {
	found := false
	in := func(list []ast.Stmt) {
		for k, s := range list {
			if s != st {
				continue
			}
			for _, later := range list[k+1:] {
				if later.Pos() <= pos && pos < later.End() {
					found = true
				}
			}
		}
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BlockStmt:
			in(n.List)
		case *ast.CaseClause:
			in(n.Body)
		case *ast.CommClause:
			in(n.Body)
		}
		return !found
	})
	return found
}

// continues reports whether st holds a continue statement of the loop it
// is in (one of a loop inside st is that loop's).
func continues(st ast.Stmt) bool {
	out := false
	ast.Inspect(st, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit, *ast.ForStmt, *ast.RangeStmt:
			return false
		case *ast.BranchStmt:
			out = out || n.Tok == token.CONTINUE
		}
		return !out
	})
	return out
}

// changedBetween reports whether code of body between from and to assigns
// root (or a part of it), takes its address, passes it to a call (delete,
// clear, or any function that may change it) or ranges over it assigning
// to it.
func changedBetween(info *types.Info, body *ast.BlockStmt, root *types.Var, from, to token.Pos) bool {
	changed := false
	mentions := func(e ast.Expr) bool { return RootVar(info, e) == root }
	ast.Inspect(body, func(n ast.Node) bool {
		if changed || n == nil || n.End() <= from || n.Pos() >= to {
			return false
		}
		switch n := n.(type) {
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				changed = changed || mentions(l)
			}
		case *ast.IncDecStmt:
			changed = changed || mentions(n.X)
		case *ast.UnaryExpr:
			changed = changed || n.Op == token.AND && mentions(n.X)
		case *ast.CallExpr:
			for _, a := range n.Args {
				if id, ok := ast.Unparen(StripConversions(info, a)).(*ast.Ident); ok && info.Uses[id] == root {
					changed = true // the slice or map itself, not one element
				}
			}
		case *ast.RangeStmt:
			if n.Tok == token.ASSIGN {
				changed = changed || n.Key != nil && mentions(n.Key) || n.Value != nil && mentions(n.Value)
			}
		}
		return true
	})
	return changed
}
