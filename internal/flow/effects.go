package flow

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/cfg"
)

// Target returns the location an out or in-out argument points to: x for
// &x (under conversions), or what a pointer expression p names (p, p.f,
// *p); a composite literal &T{...} or any other address is none.
func (lc Locator) Target(e ast.Expr) (Loc, bool) {
	if e == nil {
		return Loc{}, false
	}
	switch x := StripConversions(lc.Info, e).(type) {
	case *ast.UnaryExpr:
		if x.Op != token.AND {
			return Loc{}, false
		}
		return lc.Of(x.X)
	case *ast.CompositeLit:
		return Loc{}, false
	default:
		return lc.Of(x)
	}
}

// Addressed returns the locations whose addresses exprs pass (&x, under
// conversions): what a call that may write through its pointer arguments
// can change.
func (lc Locator) Addressed(exprs []ast.Expr) []Loc {
	var out []Loc
	for _, e := range exprs {
		if u, ok := StripConversions(lc.Info, e).(*ast.UnaryExpr); ok && u.Op == token.AND {
			if l, ok := lc.Of(u.X); ok {
				out = append(out, l)
			}
		}
	}
	return out
}

// WrapperAddressed returns the locations whose addresses a cgo wrapper
// (cgocall.IsWrapper: func() { _cgo0 := &p; ...; C.f(_cgo0) }) passes to
// its C function: what its assignments of the arguments to temporaries
// take the address of. A C function outside the model may write there.
func (lc Locator) WrapperAddressed(lit *ast.FuncLit) []Loc {
	var out []Loc
	for _, st := range lit.Body.List {
		if as, ok := st.(*ast.AssignStmt); ok {
			out = append(out, lc.Addressed(as.Rhs)...)
		}
	}
	return out
}

// AtExits calls yield with the state at each normal exit of g (a return
// statement or the end of the body): each exit block walked once from its
// fixpoint entry state in (Solve's result) with p.Transfer. Summaries of
// what a function does "on every path that returns" are the meet of these.
// The states in are not changed, unless in is spent (Solution.Last).
func AtExits[S any](info *types.Info, g *cfg.CFG, in Solution[S], p Problem[S], yield func(S)) {
	for _, b := range g.Blocks {
		s, ok := in.At(b)
		if !ok {
			continue
		}
		if kind, _ := exitOf(info, b); kind != returnExit && kind != fallOff {
			continue
		}
		s = in.own(p, s)
		for _, n := range b.Nodes {
			s = p.Transfer(n, s)
		}
		yield(s)
	}
}
