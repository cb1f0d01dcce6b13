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
	files map[token.Pos]string      // the file of each unload and load, for the message
	// loaded: package-level modules that an init loads on every run (a
	// statement of its body, or an if's condition), with that load, and
	// that no later statement of the inits unloads.
	loaded map[*types.Var]token.Pos
}

// initUnloaded returns, once, what the inits leave unloaded.
func (a *analysis_) initUnloaded() *initGone {
	if a.gone != nil {
		return a.gone
	}
	g := &initGone{mods: map[*types.Var]token.Pos{}, funcs: map[*types.Var]*types.Var{}, files: map[token.Pos]string{},
		loaded: map[*types.Var]token.Pos{}}
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
						if topLevel(st, c.Expr) || ifHead(st, c.Expr) {
							g.loaded[v] = c.Expr.Pos()
							g.files[c.Expr.Pos()] = a.pass.Fset.Position(c.Expr.Pos()).Filename
						}
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
						delete(g.loaded, v)
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

// ifHead reports whether call is in the head of the if statement st (its
// init statement or condition: if err := check(C.hipModuleLoad(&m, p));
// err != nil {...}), which runs whenever st does.
func ifHead(st ast.Stmt, call *ast.CallExpr) bool {
	is, ok := st.(*ast.IfStmt)
	if !ok {
		return false
	}
	if is.Init != nil && topLevel(is.Init, call) {
		return true
	}
	inside := false
	ast.Inspect(is.Cond, func(n ast.Node) bool {
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		inside = inside || n == call
		return !inside
	})
	return inside
}

// reloadOverInit reports, outside the inits, a load into a package-level
// module that an init loaded and left loaded, where nothing before it in
// the function looks at the variable (an unload of the module it holds, a
// check that it is empty, a reset, a call of a function of the package that
// names it): the module the init loaded is
// overwritten and never unloaded (HL2001). A function that loads it again
// runs after the inits, whoever calls it.
func (fa *funcAnalysis) reloadOverInit(c *cgocall.Call) {
	if fa.reported == nil || fa.fn.Decl == nil || fa.fn.Decl.Recv == nil && (fa.fn.Decl.Name.Name == "init" || fa.fn.Decl.Name.Name == "main") {
		return
	}
	v := fa.pkgVar(flow.Addressed(c.Arg(c.Func.Out)))
	if v == nil {
		return
	}
	at, ok := fa.initUnloaded().loaded[v]
	if !ok {
		return
	}
	seen := false
	ast.Inspect(fa.fn.Body, func(n ast.Node) bool {
		if seen || n == nil || n.Pos() >= c.Expr.Pos() {
			return false
		}
		switch n := n.(type) {
		case *ast.Ident:
			seen = fa.info.Uses[n] == v
		case *ast.CallExpr: // a helper of the package that unloads it
			seen = fa.mentioning(v)[fa.callee(n)]
		}
		return true
	})
	if seen {
		return
	}
	fa.reported.Reportf(Leak, c, []diag.Related{{Pos: at, Message: "loaded here, by an init function"}},
		"%s loads a module into %s, which still holds the module an init function in %s loaded into it: that module is never unloaded; unload the module %s holds (and reset it) before loading another",
		c.Func.Name, v.Name(), filepath.Base(fa.initUnloaded().files[at]), v.Name())
}

// mentioning returns the package's functions whose bodies name v.
func (a *analysis_) mentioning(v *types.Var) map[*types.Func]bool {
	if m, ok := a.mentions[v]; ok {
		return m
	}
	m := map[*types.Func]bool{}
	for _, fn := range a.idx.Funcs() {
		obj := fn.Object(a.info)
		if obj == nil {
			continue
		}
		ast.Inspect(fn.Body, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && a.info.Uses[id] == v {
				m[obj] = true
			}
			return !m[obj]
		})
	}
	flow.Put(&a.mentions, v, m)
	return m
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
