package modulebalance

import (
	"go/ast"
	"go/constant"
	"go/types"
	"strings"

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
func (fa *funcAnalysis) extLoc(e ast.Expr) (loc, bool) {
	var path []string
	e = flow.StripConversions(fa.info, e)
	for range 32 {
		switch x := ast.Unparen(e).(type) {
		case *ast.Ident:
			v, ok := fa.info.Uses[x].(*types.Var)
			if !ok || flow.Declares(fa.fn.Body, v) || !fa.isParamOrGlobal(v) {
				return loc{}, false
			}
			var b strings.Builder
			for i := len(path) - 1; i >= 0; i-- {
				b.WriteString(path[i])
			}
			return loc{root: v, path: b.String()}, true
		case *ast.SelectorExpr:
			if sel, ok := fa.info.Selections[x]; !ok || sel.Kind() != types.FieldVal {
				return loc{}, false
			}
			if types.IsInterface(fa.info.TypeOf(x.X)) {
				return loc{}, false
			}
			path = append(path, "."+x.Sel.Name)
			e = x.X
		case *ast.StarExpr:
			e = x.X
		case *ast.IndexExpr:
			key, ok := fa.stableKey(x.Index)
			if !ok {
				return loc{}, false
			}
			path = append(path, "["+key+"]")
			e = x.X
		default:
			return loc{}, false
		}
	}
	return loc{}, false
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

// stableKey names a map or slice key that keeps its value in the function.
func (fa *funcAnalysis) stableKey(e ast.Expr) (string, bool) {
	if tv, ok := fa.info.Types[e]; ok && tv.Value != nil {
		if tv.Value.Kind() == constant.String {
			return constant.StringVal(tv.Value), true
		}
		return tv.Value.ExactString(), true
	}
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return "", false
	}
	v, ok := fa.info.Uses[id].(*types.Var)
	if !ok || fa.assigned(v) {
		return "", false
	}
	return id.Name, true
}

// assigned reports whether the function assigns to v or declares it in a
// range clause.
func (fa *funcAnalysis) assigned(v *types.Var) bool {
	if a, ok := fa.assignedVars[v]; ok {
		return a
	}
	found := false
	defer func() { fa.assignedVars[v] = found }()
	ast.Inspect(fa.fn.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				if id, ok := ast.Unparen(l).(*ast.Ident); ok && (fa.info.Uses[id] == v || fa.info.Defs[id] == v) {
					found = true
				}
			}
		case *ast.RangeStmt:
			for _, e := range []ast.Expr{n.Key, n.Value} {
				if id, ok := e.(*ast.Ident); ok && (fa.info.Uses[id] == v || fa.info.Defs[id] == v) {
					found = true
				}
			}
		case *ast.IncDecStmt:
			if id, ok := ast.Unparen(n.X).(*ast.Ident); ok && fa.info.Uses[id] == v {
				found = true
			}
		case *ast.UnaryExpr:
			if id, ok := ast.Unparen(n.X).(*ast.Ident); ok && n.Op.String() == "&" && fa.info.Uses[id] == v {
				found = true
			}
		}
		return !found
	})
	return found
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
	fa.seeds = map[loc]bool{}
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
			if !ok || loadedRoots[l.root] {
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
