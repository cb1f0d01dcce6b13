package modulebalance

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"github.com/hiplint/hiplint/internal/flow"
	"github.com/hiplint/hiplint/internal/hipapi"
)

// loadTargets returns the variables that body loads modules into (loadsIn).
// closures: also in the closures inside.
func (a *analysis_) loadTargets(body *ast.BlockStmt, closures bool) map[types.Object]bool {
	return flow.RootsOf(a.info, func(yield func(ast.Expr)) {
		a.loadsIn(body, closures, func(e ast.Expr, _ loadKind) { yield(e) })
	})
}

// How loadsIn found a module loaded into an expression.
type loadKind int

const (
	runtimeLoad loadKind = iota // the handle argument of a runtime load (&m)
	fills                       // an argument a loader into it replaces the module of (LoadsInto)
	addsTo                      // an argument a loader into it adds a module to (LoadsInto.Adds)
	constructed                 // what a constructor's module result is assigned to
)

// loadsIn calls yield with each expression that body loads a module into:
// the handle of a runtime load, what a loader into its argument fills, the
// result of a module constructor. closures: also in the closures inside
// (cgo's wrappers are matched at their call).
func (a *analysis_) loadsIn(body ast.Node, closures bool, yield func(e ast.Expr, k loadKind)) {
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return closures
		case *ast.CallExpr:
			if c := a.idx.Match(n); c != nil {
				if c.Func.Role == hipapi.ModuleLoad {
					yield(c.Arg(c.Func.Out), runtimeLoad)
				}
				return true
			}
			li := a.loadsInto.Get(a.callee(n))
			for _, p := range li.Params {
				k := fills
				if slices.Contains(li.Adds, p) {
					k = addsTo
				}
				if e := a.idx.ArgAt(n, p); e != nil {
					yield(e, k)
				}
			}
		case *ast.AssignStmt:
			if r, ok := a.constructor(n.Rhs); ok && r.Result < len(n.Lhs) {
				yield(n.Lhs[r.Result], constructed)
			}
		}
		return true
	})
}

// addInto handles a call of a function that adds a module to what argument e
// points to (LoadsInto.Adds: `p.add(img)` appending to p.mods), l, a local
// the function created itself (target). The caller's variable becomes an
// owner that keeps the modules added before: a failed call leaves them
// loaded, and a new call does not overwrite them. A deferred cleanup of the
// owner bound to it (`defer p.close()`) covers what is added after it.
func (fa *funcAnalysis) addInto(s state, call *ast.CallExpr, l flow.Loc, status int) {
	old := previous(s, l) // or a deferred cleanup of the whole variable
	h := old.clone()
	h.b = h.b&(live|deferred|escaped|flags) | owner // what is added now replaces no module
	// The leak is reported at the adds whose modules the owner may hold: a
	// call that adds to an owner already holding modules is one more place
	// they may leak from only when it succeeds, and then the earlier adds
	// leak too.
	if old.b&live == 0 {
		h.add([]int{fa.siteIndex(call, l)}, nil)
	}
	switch {
	case h.deferAt != token.NoPos && h.b&(byRef|pointee) != 0 && !fa.candidates:
		h.b = h.b&^live | deferred // the deferred cleanup reads the owner at exit
	case h.b&(escaped|live) == escaped:
		// the owner was handed on: what it gets now is the new owner's
	default:
		b, keys := fa.callStatus(call, status)
		h.b |= b
		h.add(nil, keys)
	}
	s[l] = h
}

// ownResult, as the status result of a load, says that the load call's own
// value is its status (a runtime load: res := C.hipModuleLoad(...)).
const ownResult = -2

// callStatus returns the bits and status keys of a module loaded by call,
// whose result status (-1: none) says whether it succeeded: a variable, an
// expression compared in a condition, or none (result ignored or consumed
// by a wrapper that panics on failure).
func (fa *funcAnalysis) callStatus(call *ast.CallExpr, status int) (bits, []any) {
	h, ok := resultHolderAt(fa.info, fa.fn.Body, call, status, fa.idx.InPlace)
	if status == ownResult {
		h, ok = flow.ResultHolder(fa.info, fa.fn.Body, call, fa.idx.InPlace)
	}
	switch {
	case ok && h != nil:
		return pending, []any{h}
	case ok:
		return pending, nil
	}
	return loaded, nil
}
