package graphfree

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/hiplint/hiplint/internal/flow"
	"golang.org/x/tools/go/analysis"
)

// ReadsOnly reports whether fn is known never to write through the pointers
// it gets: runtime.Pin (real code pins the variables whose addresses go into
// kernel argument arrays), runtime.KeepAlive, runtime.SetFinalizer.
func readsOnly(fn *types.Func) bool {
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "runtime" {
		return false
	}
	switch fn.Name() {
	case "Pin", "KeepAlive", "SetFinalizer":
		return true
	}
	return false
}

// ArgLoc returns the location that an argument e names, with path
// appended: e's own under conversions and &, or for a getter's call
// (p.Ptr(), Getters) the field it returns. An element is none: a
// summary names one location.
func argLoc(pass *analysis.Pass, lc flow.Locator, e ast.Expr, path string) (flow.Loc, bool) {
	if e == nil {
		return flow.Loc{}, false
	}
	e = flow.StripConversions(lc.Info, e)
	if call, ok := e.(*ast.CallExpr); ok {
		g, ok := flow.GetterOf(pass, flow.Callee(lc.Info, call))
		if !ok {
			return flow.Loc{}, false
		}
		arg := g.Arg(lc.Info, call)
		if arg == nil {
			return flow.Loc{}, false
		}
		e, path = flow.StripConversions(lc.Info, arg), g.Path+path
	}
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
		e = u.X
	}
	l, ok := lc.Of(e)
	if !ok || l.Weak() {
		return flow.Loc{}, false
	}
	l.Path += path
	return l, true
}
