package modulebalance

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"sort"

	"github.com/hiplint/hiplint/internal/cgocall"
	"github.com/hiplint/hiplint/internal/flow"
)

// findGuardedParams returns the parameters that fn unloads only behind a
// guard that fn also clears: an idempotent Close
//
//	if m.loaded { C.hipModuleUnload(m.m); m.loaded = false }
//	if m.m == nil { return nil }; C.hipModuleUnload(m.m); m.m = nil
//	m.once.Do(func() { C.hipModuleUnload(m.m) })
//
// Calling such a function twice, or deferring it and calling it too, unloads
// the module once: the HL2002 page recommends exactly this. unloaded are the
// parameters fn unloads.
func (a *analysis_) findGuardedParams(fn flow.Func, sig *types.Signature, unloaded []int, aliases map[types.Object]types.Object) []int {
	if len(unloaded) == 0 {
		return nil
	}
	info := a.pass.TypesInfo
	// Field paths fn assigns to (m.loaded = false, m.m = nil), by parameter.
	cleared := map[int][]string{}
	// Guards: field paths read in an if condition, with the if statement.
	type guard struct {
		param int
		path  string
		stmt  *ast.IfStmt
	}
	var guards []guard
	var onceUnloads []int
	unloadsAt := map[int][]token.Pos{} // where fn unloads each parameter
	paramOf := func(e ast.Expr) (int, string, bool) {
		root, path, ok := flow.FieldPath(info, e)
		if !ok || path == "" {
			return 0, "", false
		}
		i, ok := flow.ParamIndex(sig, root)
		return i, path, ok
	}
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				if i, path, ok := paramOf(l); ok {
					cleared[i] = append(cleared[i], path)
				}
			}
		case *ast.IfStmt:
			ast.Inspect(n.Cond, func(c ast.Node) bool {
				if e, ok := c.(ast.Expr); ok {
					if i, path, ok := paramOf(e); ok {
						guards = append(guards, guard{i, path, n})
						return false
					}
				}
				return true
			})
		case *ast.CallExpr:
			for _, m := range a.unloadedExprs(n) {
				if v := flow.RootVar(info, m); v != nil {
					root := types.Object(v)
					if p, ok := aliases[root]; ok {
						root = p
					}
					if i, ok := flow.ParamIndex(sig, root); ok {
						unloadsAt[i] = append(unloadsAt[i], n.Pos())
					}
				}
			}
			if !flow.IsOnceDo(a.callee(n)) {
				return true
			}
			for _, arg := range n.Args {
				lit, ok := ast.Unparen(arg).(*ast.FuncLit)
				if !ok || cgocall.IsWrapper(info, lit) {
					continue
				}
				for root := range a.unloadedRoots(lit.Body) {
					if i, ok := flow.ParamIndex(sig, root); ok {
						onceUnloads = append(onceUnloads, i)
					}
				}
			}
		}
		return true
	})
	var out []int
	for _, i := range unloaded {
		ok := slices.Contains(onceUnloads, i)
		for _, g := range guards {
			if g.param == i && slices.ContainsFunc(cleared[i], func(p string) bool { return flow.PathWithin(p, g.path) || flow.PathWithin(g.path, p) }) &&
				len(unloadsAt[i]) > 0 && flow.Guarded(g.stmt, unloadsAt[i]) {
				ok = true
			}
		}
		if ok {
			out = append(out, i)
		}
	}
	sort.Ints(out)
	return out
}

// cleanedUpByTest reports whether body registers a t.Cleanup that unloads
// one of objs: a test helper that returns such a module keeps the unload,
// and its callers own nothing.
func (a *analysis_) cleanedUpByTest(body *ast.BlockStmt, objs map[types.Object]bool) bool {
	info := a.pass.TypesInfo
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if found || !ok || !flow.IsTestCleanup(a.callee(call)) {
			return !found
		}
		for _, arg := range call.Args {
			switch x := ast.Unparen(arg).(type) {
			case *ast.FuncLit:
				for root := range a.unloadedRoots(x.Body) {
					found = found || objs[root]
				}
			case *ast.SelectorExpr:
				if fn, ok := info.Uses[x.Sel].(*types.Func); ok && slices.Contains(a.unloadsOf(fn).Params, -1) {
					if root := flow.RootVar(info, x.X); root != nil && objs[root] {
						found = true
					}
				}
			}
		}
		return !found
	})
	return found
}
