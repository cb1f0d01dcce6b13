package modulebalance

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"

	"github.com/hiplint/hiplint/internal/cgocall"
	"github.com/hiplint/hiplint/internal/diag"
	"github.com/hiplint/hiplint/internal/flow"
	"github.com/hiplint/hiplint/internal/hipapi"
)

// Program order (flow.InitOrder): the package's init functions run one
// after the other, in file name order, before anything else of the
// package. A package-level module that an init unloads, unconditionally
// and after every load of it in the inits, is unloaded for the rest of the
// program unless some other function loads it again; a function or global
// handle an init took from it dangles.

// initGone is what the package's inits leave unloaded.
type initGone struct {
	mods  map[*types.Var]token.Pos  // package-level modules, with their last unload
	funcs map[*types.Var]*types.Var // package-level function and global handles, with their module
	files map[token.Pos]string      // the file of each unload, for the message
}

// initUnloaded returns, once, what the inits leave unloaded.
func (a *analysis_) initUnloaded() *initGone {
	if a.gone != nil {
		return a.gone
	}
	g := &initGone{mods: map[*types.Var]token.Pos{}, funcs: map[*types.Var]*types.Var{}, files: map[token.Pos]string{}}
	a.gone = g
	inits := flow.InitOrder(a.idx)
	isInit := map[*ast.BlockStmt]bool{}
	for _, fn := range inits {
		isInit[fn.Body] = true
		for _, st := range fn.Body.List {
			a.idx.Inspect(st, func(c *cgocall.Call) bool {
				switch c.Func.Role {
				case hipapi.ModuleLoad:
					if v := a.pkgVar(flow.Addressed(c.Arg(c.Func.Out))); v != nil {
						delete(g.mods, v)
					}
				case hipapi.ModuleGetFunction, hipapi.ModuleGetGlobal:
					f, m := a.pkgVar(flow.Addressed(c.Arg(c.Func.Out))), a.pkgVar(c.Arg(c.Func.Module))
					if f != nil && m != nil {
						g.funcs[f] = m
					}
				case hipapi.ModuleUnload:
					// Only an unload every run makes: a statement of the
					// init's body itself, not one in a branch or a loop.
					if v := a.pkgVar(c.Arg(c.Func.Module)); v != nil && topLevel(st, c.Expr) {
						g.mods[v] = c.Expr.Pos()
						g.files[c.Expr.Pos()] = a.pass.Fset.Position(c.Expr.Pos()).Filename
					}
				}
				return true
			})
		}
	}
	if len(g.mods) == 0 {
		return g
	}
	// A module another function loads again may be loaded when it is used;
	// a handle another function sets may come from another module.
	for _, fn := range a.idx.Funcs() {
		if isInit[fn.Body] {
			continue
		}
		a.idx.Inspect(fn.Body, func(c *cgocall.Call) bool {
			if c.Func.Role == hipapi.ModuleLoad {
				delete(g.mods, a.pkgVar(flow.Addressed(c.Arg(c.Func.Out))))
			}
			if c.Func.Role == hipapi.ModuleGetFunction || c.Func.Role == hipapi.ModuleGetGlobal {
				delete(g.funcs, a.pkgVar(flow.Addressed(c.Arg(c.Func.Out))))
			}
			return true
		})
		ast.Inspect(fn.Body, func(n ast.Node) bool {
			if as, ok := n.(*ast.AssignStmt); ok {
				for _, l := range as.Lhs {
					if v := a.pkgVar(l); v != nil {
						delete(g.mods, v)
						delete(g.funcs, v)
					}
				}
			}
			return true
		})
	}
	return g
}

// topLevel reports whether call is the statement st itself (through a
// status check: check(C.hipModuleUnload(m)), _ = ...), not inside a branch,
// a loop or a closure of it.
func topLevel(st ast.Stmt, call *ast.CallExpr) bool {
	switch st.(type) {
	case *ast.ExprStmt, *ast.AssignStmt, *ast.ReturnStmt, *ast.DeferStmt:
	default:
		return false
	}
	inside := false
	ast.Inspect(st, func(n ast.Node) bool {
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		if n == call {
			inside = true
		}
		return !inside
	})
	return inside
}

// pkgVar returns the package-level variable e names, or nil.
func (a *analysis_) pkgVar(e ast.Expr) *types.Var {
	id, ok := ast.Unparen(flow.StripConversions(a.info, e)).(*ast.Ident)
	if !ok {
		return nil
	}
	v, ok := a.info.ObjectOf(id).(*types.Var)
	if !ok || v.Pkg() == nil || v.Parent() != v.Pkg().Scope() {
		return nil
	}
	return v
}

// afterInitUnload reports, outside the inits, a launch of a function
// handle (or a look-up in a module) that the inits left unloaded.
func (fa *funcAnalysis) afterInitUnload(c *cgocall.Call) {
	if fa.reported == nil || fa.fn.Decl == nil || fa.fn.Decl.Name.Name == "init" && fa.fn.Decl.Recv == nil {
		return
	}
	g := fa.initUnloaded()
	if len(g.mods) == 0 {
		return
	}
	var arg ast.Expr
	switch c.Func.Role {
	case hipapi.Launch:
		arg = c.Arg(c.Func.Function)
	case hipapi.ModuleGetFunction, hipapi.ModuleGetGlobal:
		arg = c.Arg(c.Func.Module)
	default:
		return
	}
	v := fa.pkgVar(arg)
	if v == nil {
		return
	}
	mod, what := v, "module "+v.Name()+", which"
	if m := g.funcs[v]; m != nil {
		mod, what = m, fmt.Sprintf("%s, whose module %s", v.Name(), m.Name())
	}
	at, ok := g.mods[mod]
	if !ok {
		return
	}
	fa.reported.Reportf(UseAfterUnload, c, []diag.Related{{Pos: at, Message: "unloaded here, by an init function"}},
		"%s uses %s was unloaded by an init function in %s; the init functions all run before the package is used (file by file, in name order): keep the module loaded, or take the function from a module loaded when it is needed",
		c.Func.Name, what, filepath.Base(g.files[at]))
}
