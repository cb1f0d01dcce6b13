package flow

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/hiplint/hiplint/internal/cgocall"
)

// ListedElement reports whether second, an expression in body rooted at a
// variable v declared in body (through fields, method calls, dereferences:
// a.Function(name), a.m), names what first, the element of each iteration
// of an earlier range loop (as in SameElements), released: the loop ranges
// over a variable declared in body whose value is a composite literal of
// slice or array type that lists v (mods := []*Module{a, b}; for _, md :=
// range mods { md.Close() }; a.Function(name)), so the loop visited v's
// value and released it.
//
// As in SameElements, first is in a plain statement of the loop's own body
// and that body neither leaves nor skips an iteration, and the loop is a
// statement of a block that holds second after it. Also: the literal's
// statement is one of a block that holds the loop after it; the ranged
// variable is not mentioned between the literal and the loop but as the
// loop's operand, and in the loop's body only indexed (mods[i]), never
// changed there but by clearing the element of the key variable after the
// release (mods[i] = nil); first may be in a closure cgo generated around
// a call (C.hipModuleUnload(m)); v is not assigned, incremented or had its
// address taken from the literal to second, nor assigned in a closure or
// had its address taken anywhere in body (but as an argument of a call
// before the literal, outside closures: C.hipModuleLoad(&m, path)).
func ListedElement(info *types.Info, body *ast.BlockStmt, first, second ast.Expr) bool {
	first, second = elementOperand(first), elementOperand(second)
	if !declaredIn(info, body, first) {
		return false
	}
	id, ok := second.(*ast.Ident)
	if !ok {
		return false
	}
	v, ok := info.Uses[id].(*types.Var)
	return ok && ListedVar(info, body, first, v, second.Pos())
}

// ListedVar is ListedElement for a use at pos of what v, a variable
// declared in body, holds: a launch at pos of a function handle looked up
// in v's module before the loop.
func ListedVar(info *types.Info, body *ast.BlockStmt, first ast.Expr, v *types.Var, pos token.Pos) bool {
	first = elementOperand(first)
	if v == nil || !declaredIn(info, body, first) || !(body.Pos() <= v.Pos() && v.Pos() < body.End()) {
		return false
	}
	loop, idx := elementLoop(info, body, first, true)
	if loop == nil || loop.End() > pos || !skipsNone(loop.Body.List) {
		return false
	}
	xid, ok := ast.Unparen(loop.X).(*ast.Ident)
	if !ok {
		return false
	}
	set, ok := info.Uses[xid].(*types.Var)
	if !ok || set == v || !(body.Pos() <= set.Pos() && set.Pos() < body.End()) {
		return false
	}
	def, lit := literalDef(info, body, set)
	if def == nil || !lists(info, lit, v) {
		return false
	}
	return dominates(body, def, loop.Pos()) && dominates(body, loop, pos) &&
		onlyRanged(info, body, set, def.End(), loop, idx) &&
		!reassigned(info, body, v, lit.End(), pos)
}

// literalDef returns the statement that declares set with the value of a
// composite literal of slice or array type (mods := []*Module{a, b}, var
// mods = [2]*Module{a, b}), and that literal; nil when set is declared
// otherwise.
func literalDef(info *types.Info, body *ast.BlockStmt, set *types.Var) (ast.Stmt, *ast.CompositeLit) {
	var def ast.Stmt
	var lit *ast.CompositeLit
	pick := func(st ast.Stmt, names []*ast.Ident, values []ast.Expr) {
		if len(names) != len(values) {
			return
		}
		for i, n := range names {
			if info.Defs[n] != set {
				continue
			}
			if cl, ok := ast.Unparen(values[i]).(*ast.CompositeLit); ok {
				switch info.TypeOf(cl).Underlying().(type) {
				case *types.Slice, *types.Array:
					def, lit = st, cl
				}
			}
		}
	}
	ast.Inspect(body, func(n ast.Node) bool {
		if def != nil {
			return false
		}
		switch n := n.(type) {
		case *ast.AssignStmt:
			if n.Tok != token.DEFINE {
				return true
			}
			var names []*ast.Ident
			for _, l := range n.Lhs {
				id, _ := l.(*ast.Ident)
				names = append(names, id) // nil: matches no Defs entry
			}
			pick(n, names, n.Rhs)
		case *ast.DeclStmt:
			if gd, ok := n.Decl.(*ast.GenDecl); ok && len(gd.Specs) == 1 {
				if vs, ok := gd.Specs[0].(*ast.ValueSpec); ok {
					pick(n, vs.Names, vs.Values)
				}
			}
			return false
		}
		return true
	})
	return def, lit
}

// lists reports whether lit has an element (or a keyed element's value)
// that is v or a field path of it (a, a.m).
func lists(info *types.Info, lit *ast.CompositeLit, v *types.Var) bool {
	for _, e := range lit.Elts {
		if kv, ok := e.(*ast.KeyValueExpr); ok {
			e = kv.Value
		}
		if isPath(e) && RootVar(info, e) == v {
			return true
		}
	}
	return false
}

// onlyRanged reports whether set is mentioned after from (its literal's
// end) up to the end of loop only as loop's operand and, in loop's body,
// as the operand of an index (set[i]), and whether the body changes set
// only by assigning to set[key], the element of the key variable, in a
// statement after the one at index release, the release of the element.
func onlyRanged(info *types.Info, body *ast.BlockStmt, set *types.Var, from token.Pos, loop *ast.RangeStmt, release int) bool {
	indexed := map[*ast.Ident]bool{}
	ast.Inspect(loop.Body, func(n ast.Node) bool {
		if ix, ok := n.(*ast.IndexExpr); ok {
			if id, ok := ast.Unparen(ix.X).(*ast.Ident); ok {
				indexed[id] = true
			}
		}
		return true
	})
	ok := true
	ast.Inspect(body, func(n ast.Node) bool {
		if !ok || n == nil || n.End() <= from || n.Pos() >= loop.End() {
			return false
		}
		id, isID := n.(*ast.Ident)
		if !isID || info.Uses[id] != set || id == loop.X {
			return true
		}
		ok = loop.Body.Pos() <= id.Pos() && indexed[id]
		return ok
	})
	if !ok {
		return false
	}
	var key types.Object
	if k, isID := loop.Key.(*ast.Ident); isID && k.Name != "_" {
		key = info.ObjectOf(k)
	}
	for i, st := range loop.Body.List {
		if i > release && clearsKey(info, st, set, key) {
			continue
		}
		if changedBetween(info, loop.Body, set, st.Pos(), st.End()) {
			return false
		}
	}
	return true
}

// clearsKey reports whether st is `set[key] = x` for the loop's key
// variable key.
func clearsKey(info *types.Info, st ast.Stmt, set *types.Var, key types.Object) bool {
	as, ok := st.(*ast.AssignStmt)
	if !ok || key == nil || as.Tok != token.ASSIGN || len(as.Lhs) != 1 {
		return false
	}
	ix, ok := ast.Unparen(as.Lhs[0]).(*ast.IndexExpr)
	if !ok {
		return false
	}
	x, okX := ast.Unparen(ix.X).(*ast.Ident)
	k, okK := ast.Unparen(ix.Index).(*ast.Ident)
	if !okX || !okK || info.Uses[x] != set || info.Uses[k] != key {
		return false
	}
	// The value must not mention set (mods[i] = mods[i+1]).
	mentions := false
	ast.Inspect(as.Rhs[0], func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && info.Uses[id] == set {
			mentions = true
		}
		return !mentions
	})
	return !mentions
}

// reassigned reports whether v may hold another value at to than at from:
// code between them assigns it (or a field path of it), increments it or
// takes its address, or anywhere in body a closure assigns it or its
// address is taken other than as an argument of a call before from.
func reassigned(info *types.Info, body *ast.BlockStmt, v *types.Var, from, to token.Pos) bool {
	mentions := func(e ast.Expr) bool { return RootVar(info, e) == v }
	// &v passed straight to a call (C.hipModuleLoad(&m, path)) before from
	// lends v for the call; &v kept elsewhere may change it later.
	lent := map[ast.Node]bool{}
	ast.Inspect(body, func(n ast.Node) bool {
		if lit, ok := n.(*ast.FuncLit); ok {
			if cgocall.IsWrapper(info, lit) { // _cgo0 := &m: cgo's temporaries
				ast.Inspect(lit.Body, func(m ast.Node) bool {
					if u, ok := m.(*ast.UnaryExpr); ok && u.Op == token.AND && u.Pos() < from {
						lent[u] = true
					}
					return true
				})
			}
			return false // a user closure may run later
		}
		if c, ok := n.(*ast.CallExpr); ok {
			for _, a := range c.Args {
				if u, ok := ast.Unparen(a).(*ast.UnaryExpr); ok && u.Pos() < from {
					lent[u] = true
				}
			}
		}
		return true
	})
	out := false
	var walk func(n ast.Node, inLit bool) bool
	walk = func(n ast.Node, inLit bool) bool {
		if out || n == nil {
			return false
		}
		between := from < n.End() && n.Pos() < to
		switch n := n.(type) {
		case *ast.FuncLit:
			ast.Inspect(n.Body, func(m ast.Node) bool { return walk(m, true) })
			return false
		case *ast.AssignStmt:
			if between || inLit {
				for _, l := range n.Lhs {
					out = out || mentions(l)
				}
			}
		case *ast.IncDecStmt:
			out = out || (between || inLit) && mentions(n.X)
		case *ast.UnaryExpr:
			out = out || n.Op == token.AND && !lent[n] && mentions(n.X)
		case *ast.RangeStmt:
			if n.Tok == token.ASSIGN && (between || inLit) {
				out = out || n.Key != nil && mentions(n.Key) || n.Value != nil && mentions(n.Value)
			}
		}
		return !out
	}
	ast.Inspect(body, func(n ast.Node) bool { return walk(n, false) })
	return out
}
