package modulebalance

import (
	"go/ast"
	"go/types"

	"github.com/hiplint/hiplint/internal/flow"
	"github.com/hiplint/hiplint/internal/hipapi"
)

// held: the handle holds a module this function did not load (a parameter's,
// a field's, a map's, or a local copied from one). It is tracked only so that
// its unload is seen: a module, function or global used after that unload is
// a use after unload (HL2003). Held modules never leak here.
const held bits = 1 << 6

// extLoc returns the handle e denotes when it is rooted at a parameter, the
// receiver or a package-level variable: p, m.h, mods[name], c.mods["saxpy"].
// Map and slice keys must be constants or variables the function never
// assigns (a range variable changes each iteration).
func (fa *funcAnalysis) extLoc(e ast.Expr) (flow.Loc, bool) {
	return fa.externals.Of(flow.StripConversions(fa.info, e))
}

func (fa *funcAnalysis) isParamOrGlobal(v *types.Var) bool {
	if v.Pkg() != nil && v.Parent() != nil && v.Parent() == v.Pkg().Scope() {
		return true
	}
	sig := fa.fn.Signature(fa.info)
	if sig == nil {
		return false
	}
	_, ok := flow.ParamIndex(sig, v)
	return ok
}

// seedHeld returns the entry state: a held handle for every module the
// function unloads without loading it (a parameter's, a field's, a map's or
// a local copy of one), so that what follows its unload can be checked, and
// so that a path that does not unload it joins as "not unloaded".
func (fa *funcAnalysis) seedHeld() state {
	s := state{}
	loadedRoots := map[types.Object]bool{}
	for _, site := range fa.loadTargets() {
		loadedRoots[site] = true
	}
	fa.seeds = map[flow.Loc]bool{}
	ast.Inspect(fa.fn.Body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		for _, m := range fa.unloadedExprs(call) {
			l, ok := fa.localLoc(m)
			if !ok {
				l, ok = fa.extLoc(m)
			}
			if !ok || loadedRoots[l.Root] {
				continue
			}
			fa.seeds[l] = true
			s[l] = &handle{b: held}
		}
		return true
	})
	return s
}

// loadTargets returns the variables the function loads modules into.
func (fa *funcAnalysis) loadTargets() []types.Object {
	var out []types.Object
	ast.Inspect(fa.fn.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			if c := fa.idx.Match(n); c != nil {
				if c.Func.Role == hipapi.ModuleLoad {
					if root := flow.RootVar(fa.info, c.Arg(c.Func.Out)); root != nil {
						out = append(out, root)
					}
				}
				return true
			}
			fn := fa.callee(n)
			if li, ok := fa.loadsInto.Of(fn); ok {
				for _, e := range flow.ArgsAt(n, li.Params) {
					if root := flow.RootVar(fa.info, e); root != nil {
						out = append(out, root)
					}
				}
			}
		case *ast.AssignStmt:
			if len(n.Rhs) != 1 {
				return true
			}
			if call, ok := ast.Unparen(n.Rhs[0]).(*ast.CallExpr); ok {
				if r, ok := fa.returns.Of(fa.callee(call)); ok && r.Result < len(n.Lhs) {
					if root := flow.RootVar(fa.info, n.Lhs[r.Result]); root != nil {
						out = append(out, root)
					}
				}
			}
		}
		return true
	})
	return out
}

// resetHeld forgets the unloads of held handles at e: something may have put
// a new module there.
func (fa *funcAnalysis) resetHeld(s state, e ast.Expr) {
	for _, k := range fa.handlesAt(s, e) {
		if fa.seeds[k] {
			s[k] = &handle{b: held}
		}
	}
}
