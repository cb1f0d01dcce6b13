package modulebalance

import (
	"go/ast"

	"github.com/hiplint/hiplint/internal/flow"
)

// loc returns the handle e denotes: rooted at a variable of the function
// (localLoc), or at a parameter, the receiver or a package-level variable:
// p, m.h, mods[name], c.mods["saxpy"]. Map and slice keys must be constants
// or variables the function never assigns (a range variable changes each
// iteration).
func (fa *funcAnalysis) loc(e ast.Expr) (flow.Loc, bool) {
	if l, ok := fa.localLoc(e); ok {
		return l, true
	}
	return fa.externals.Of(flow.StripConversions(fa.info, e))
}

// target returns the handle that a load into e fills: a local's, or a
// field of a parameter or the receiver that the load replaces (the
// caller's: given). A load elsewhere (a package-level cache, an element,
// or with fresh a local that points to someone else's pool: `p :=
// s.pool`) belongs to whoever owns it: the unloads of held handles at e
// are forgotten, as something may have put a new module there.
func (fa *funcAnalysis) target(s state, e ast.Expr, fresh bool) (flow.Loc, bool) {
	// nil (a load through a pointer) is no handle.
	e = flow.StripAddr(e)
	l, ok := fa.localLoc(e)
	if ok && (!fresh || flow.OnlyFresh(fa.info, fa.fn.Body, l.Root)) {
		return l, true
	}
	// A load that replaces a field of a parameter or the receiver (&r.m):
	// the caller's module (given), but one more load into the field
	// before an unload drops the first.
	if _, field := ast.Unparen(e).(*ast.SelectorExpr); field && !fresh && !ok {
		if l, ok := fa.externals.Of(e); ok && !l.Weak() && l.Root.Parent() != l.Root.Pkg().Scope() { // not a package variable, of any package
			return l, true
		}
	}
	for _, k := range fa.handlesAt(s, e) {
		if h := fa.entry[k]; h != nil {
			s[k] = h
		}
	}
	return flow.Loc{}, false
}
