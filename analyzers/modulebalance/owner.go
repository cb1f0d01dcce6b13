package modulebalance

import (
	"go/ast"
	"go/token"
	"slices"

	"github.com/hiplint/hiplint/internal/flow"
)

// move handles the assignments (one left and one right side: transfer)
// that move a module: `h := uintptr(unsafe.Pointer(m))` and `m2 := m` (the
// module now lives in h, so h is tracked in m's place), and
// `mods = append(mods, m)`, `o.mods = append(o.mods, m)` and
// `mods[name] = m` where the owner is a local variable: the module now
// lives in the owner, which must itself be returned, stored or cleaned up.
// An append to a slice that dies with the function is no transfer: on an
// error return that drops the owner, its modules leak.
func (fa *funcAnalysis) move(as *ast.AssignStmt, s state) bool {
	if from, h, ok := fa.movable(s, as.Rhs[0]); ok {
		if to, local := fa.localLoc(as.Lhs[0]); local && to != from {
			fa.overwrite(s, as.Lhs[0], as)
			s[to] = h
			delete(s, from)
			return true
		}
	}
	to, vals, ok := flow.AddedTo(fa.info, as.Lhs[0], as.Rhs[0])
	if !ok || as.Tok != token.ASSIGN && as.Tok != token.DEFINE { // one left and one right side (transfer)
		return false
	}
	o, ok := fa.localLoc(to)
	// nil when !ok: no handle has the zero Loc.
	old := s[o]
	if !ok || old != nil && old.b&owner == 0 {
		return false
	}
	var froms []flow.Loc
	for _, v := range vals {
		from, h, ok := fa.movable(s, v)
		if !ok || h.b&escaped != 0 {
			return false
		}
		froms = append(froms, from)
	}
	h := &handle{b: owner}
	if old != nil {
		h = old.clone() // shared with other states: see own
	}
	for _, from := range froms {
		h.b |= s[from].b & live
		h.add(s[from].sites, s[from].status)
		delete(s, from)
	}
	s[o] = h
	return true
}

// rangeOverOwner handles `for _, m := range mods { C.hipModuleUnload(m) }`
// over an owner of modules: when the body unloads what it ranges over, the
// owner's modules are unloaded. It reports whether n was such a range.
func (fa *funcAnalysis) rangeOverOwner(n ast.Node, s state) bool {
	// A statement is no expression: nil, no handle.
	x, _ := n.(ast.Expr)
	ks := fa.handlesAt(s, x)
	if len(ks) == 0 {
		return false
	}
	// The body unloads its value (or key) variable or an element of what it
	// ranges over.
	rs, ok := flow.Parent(fa.fn.Body, x).(*ast.RangeStmt)
	if !ok || rs.X != x {
		return false
	}
	roots := flow.ReleasedRoots(fa.idx, fa.info, rs.Body, fa.unloadsOf)
	if !slices.ContainsFunc([]ast.Expr{rs.Key, rs.Value, rs.X}, func(e ast.Expr) bool {
		return roots[flow.RootVar(fa.info, e)]
	}) {
		return false
	}
	for _, k := range ks {
		if s[k].b&live != 0 && !fa.candidates {
			h := own(s, k)
			h.b = h.b&^live | unloaded
			h.unloadAt = x.Pos()
		}
	}
	return true
}
