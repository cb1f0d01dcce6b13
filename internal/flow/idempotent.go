package flow

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"sort"

	"github.com/hiplint/hiplint/internal/cgocall"
)

// IdempotentParams returns those of params (parameters of sig, Receiver for
// the receiver) that body releases only behind a guard it also clears: an
// idempotent Close,
//
//	if m.loaded { release(m.h); m.loaded = false }
//	if m.h == nil { return nil }; release(m.h); m.h = nil
//	m.once.Do(func() { release(m.h) })
//
// so that calling it twice, or deferring it and calling it too, releases
// once. released returns the expressions a call releases (what the analyzer
// counts as a release: a runtime free, unload or destroy, or a call of a
// function that does one); aliases maps locals that stand for a parameter
// to it (ParamAliases). Closures other than sync.Once.Do's are not looked
// into.
func IdempotentParams(info *types.Info, body *ast.BlockStmt, sig *types.Signature, params []int,
	aliases map[types.Object]types.Object, released func(*ast.CallExpr) []ast.Expr) []int {
	if len(params) == 0 {
		return nil
	}
	// Field paths body assigns to (m.loaded = false, m.h = nil), by parameter.
	cleared := map[int][]string{}
	// Guards: field paths read in an if condition, with the if statement.
	type guard struct {
		param int
		path  string
		stmt  *ast.IfStmt
	}
	var guards []guard
	var onceReleases []int
	releasesAt := map[int][]token.Pos{} // where body releases each parameter
	paramOf := func(e ast.Expr) (int, string, bool) {
		root, path, ok := fieldPath(info, e)
		if !ok || path == "" {
			return 0, "", false
		}
		i, ok := paramIndex(sig, root)
		return i, path, ok
	}
	paramRoot := func(e ast.Expr) (int, bool) {
		v := RootVar(info, e)
		if v == nil {
			return 0, false
		}
		root := types.Object(v)
		if p, ok := aliases[root]; ok {
			root = p
		}
		return paramIndex(sig, root)
	}
	ast.Inspect(body, func(n ast.Node) bool {
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
			for _, m := range released(n) {
				if i, ok := paramRoot(m); ok {
					releasesAt[i] = append(releasesAt[i], n.Pos())
				}
			}
			if !isOnceDo(Callee(info, n)) {
				return true
			}
			for _, arg := range n.Args {
				lit, ok := ast.Unparen(arg).(*ast.FuncLit)
				if !ok || cgocall.IsWrapper(info, lit) {
					continue
				}
				ast.Inspect(lit.Body, func(x ast.Node) bool {
					if call, ok := x.(*ast.CallExpr); ok {
						for _, m := range released(call) {
							if v := RootVar(info, m); v != nil {
								if i, ok := paramIndex(sig, v); ok {
									onceReleases = append(onceReleases, i)
								}
							}
						}
					}
					return true
				})
			}
		}
		return true
	})
	var out []int
	for _, i := range params {
		ok := slices.Contains(onceReleases, i)
		for _, g := range guards {
			clears := slices.ContainsFunc(cleared[i], func(p string) bool { return pathWithin(p, g.path) || pathWithin(g.path, p) })
			if g.param == i && clears && len(releasesAt[i]) > 0 && guarded(g.stmt, releasesAt[i]) {
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
