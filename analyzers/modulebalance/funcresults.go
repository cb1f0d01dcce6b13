package modulebalance

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"github.com/hiplint/hiplint/internal/diag"
	"github.com/hiplint/hiplint/internal/flow"
	"github.com/hiplint/hiplint/internal/hipapi"
)

// ReturnsFunction is the fact that a function returns function (or global)
// handles that hipModuleGetFunction (hipModuleGetGlobal) took from a module
// (issue #31, #32). A function handle lives only as long as its module, so
// the caller must know which module a returned handle belongs to:
//
//	func load(img string) (C.hipModule_t, C.hipFunction_t, error) // result 1 from result 0
//	func Lookup() (C.hipFunction_t, error)                         // result 0, module unloaded at return
//
// The first ties the caller's f to its m (`m, f, err := load(p)`): a launch
// of f after m's unload is HL2003, as for a handle the caller took itself.
// The second hands out a handle whose module is gone when the caller gets
// it: any launch of it is HL2003.
type ReturnsFunction struct{ Handles []FuncHandle }

// FuncHandle is one handle a function returns.
type FuncHandle struct {
	Result int // the result holding the handle
	// Module is the result holding the module it was taken from; -1 when
	// the function does not return that module.
	Module int
	// Unloaded: the function unloads the module before it returns (a
	// deferred unload, or one on the path to every return of the handle).
	Unloaded bool
	// FromParam: the module is the one the caller passes in parameter
	// Param (`func lookup(m C.hipModule_t, name string) (C.hipFunction_t,
	// error)`): the caller's handle is tied to the module it passed.
	FromParam bool
	Param     int
	// at is that unload, for a related position; an imported fact's points
	// to the function's declaration (positions do not cross packages).
	at token.Pos
}

func (*ReturnsFunction) AFact()           {}
func (f *ReturnsFunction) String() string { return flow.JoinText(f.Handles, " ") }

func (h FuncHandle) String() string {
	if h.Unloaded {
		return fmt.Sprintf("returnsFunction(result=%d, unloaded)", h.Result)
	}
	if h.FromParam {
		return fmt.Sprintf("returnsFunction(result=%d, param=%d)", h.Result, h.Param)
	}
	return fmt.Sprintf("returnsFunction(result=%d, module=%d)", h.Result, h.Module)
}

// solveFuncResults computes the package's ReturnsFunction summaries, to a
// fixpoint (a wrapper returns what the function it calls returns), once the
// other summaries are solved: it reads Unloads.
func (a *analysis_) solveFuncResults(funcs []flow.Func) {
	a.funcResults.Imported = func(fn *types.Func, f *ReturnsFunction) {
		for i := range f.Handles {
			f.Handles[i].at = fn.Pos()
		}
	}
	s := flow.Summaries[ReturnsFunction]{Pass: a.pass, Index: a.idx, Analyze: a.summarizeFuncResults,
		Relevant: func(fn flow.Func) bool { return fn.Decl != nil && fn.Signature(a.info).Results().Len() > 0 },
		Update:   func(obj *types.Func, f ReturnsFunction) bool { return a.funcResults.Set(obj, f) }}
	s.Solve(funcs)
}

// handleOrigin is where a local function handle came from: the variable
// holding its module (nil: unknown), and where the module was unloaded
// before the handle reached this function (a callee's Unloaded).
type handleOrigin struct {
	module     types.Object
	unloadedAt token.Pos
}

// handleOrigins maps the variables of body that hold a function or global
// handle to where it came from: hipModuleGetFunction(&f, m, ...), or a
// callee's ReturnsFunction (`m, f, err := load(p)`). A variable assigned
// any other way, or twice, is left out, and so is a module variable
// assigned twice (the deferred unload of m may unload another module).
func (a *analysis_) handleOrigins(body *ast.BlockStmt) map[types.Object]handleOrigin {
	var out map[types.Object]handleOrigin
	writes := map[types.Object]int{}
	set := func(e ast.Expr, o handleOrigin) {
		if obj := identObj(a.info, e); obj != nil {
			flow.Put(&out, obj, o)
		}
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				if obj := identObj(a.info, l); obj != nil {
					writes[obj]++
				}
			}
			if len(n.Rhs) == 1 {
				a.calleeHandles(n.Lhs, n.Rhs[0], set)
			}
		case *ast.ValueSpec:
			for _, name := range n.Names {
				if obj := identObj(a.info, name); obj != nil && len(n.Values) > 0 {
					writes[obj]++
				}
			}
			if len(n.Values) == 1 {
				a.calleeHandles(identExprs(n.Names), n.Values[0], set)
			}
		case *ast.UnaryExpr:
			if n.Op == token.AND {
				if obj := identObj(a.info, n.X); obj != nil {
					writes[obj]++
				}
			}
		case *ast.CallExpr:
			c := a.idx.Match(n)
			if c == nil || c.Func.Role != hipapi.ModuleGetFunction && c.Func.Role != hipapi.ModuleGetGlobal {
				return true
			}
			if mod := identObj(a.info, flow.StripConversions(a.info, c.Arg(c.Func.Module))); mod != nil {
				set(flow.Addressed(c.Arg(c.Func.Out)), handleOrigin{module: mod})
			}
		}
		return true
	})
	for obj, o := range out {
		// One write for the handle (the fill or the assignment), one for
		// its module (its definition or load); `var f C.hipFunction_t`
		// writes nothing.
		if writes[obj] > 1 || o.module != nil && writes[o.module] > 1 {
			delete(out, obj)
		}
	}
	return out
}

// calleeHandles calls set for each of lhs that rhs, a call of a function
// with ReturnsFunction, fills with a handle.
func (a *analysis_) calleeHandles(lhs []ast.Expr, rhs ast.Expr, set func(ast.Expr, handleOrigin)) {
	call, ok := ast.Unparen(rhs).(*ast.CallExpr)
	if !ok {
		return
	}
	rf, ok := a.funcResults.Of(a.callee(call))
	if !ok {
		return
	}
	for _, h := range rf.Handles {
		if h.Result >= len(lhs) || h.Module >= len(lhs) {
			continue
		}
		var o handleOrigin
		switch {
		case h.Unloaded:
			o.unloadedAt = h.at
		case h.FromParam:
			o.module = identObj(a.info, flow.StripConversions(a.info, a.idx.ArgAt(call, h.Param)))
		case h.Module >= 0:
			o.module = identObj(a.info, lhs[h.Module])
		}
		set(lhs[h.Result], o)
	}
}

// summarizeFuncResults returns fn's ReturnsFunction: the results that hold,
// on every return that does not return nil there, a handle of the same
// origin.
func (a *analysis_) summarizeFuncResults(fn flow.Func) ReturnsFunction {
	sig := fn.Signature(a.info)
	n := sig.Results().Len()
	origins := a.handleOrigins(fn.Body)
	type result struct {
		seen, bad bool
		module    int
		param     int       // the parameter holding the module (flow.Receiver-1: none)
		at        token.Pos // the unload, while every return so far unloads
	}
	noParam := flow.Receiver - 1
	res := make([]result, n)
	paramOf := func(mod types.Object) int {
		for i := flow.Receiver; i < sig.Params().Len(); i++ {
			if p := flow.ParamVar(sig, i); p != nil && p == mod {
				return i
			}
		}
		return noParam
	}
	note := func(i, module, param int, at token.Pos) {
		r := &res[i]
		if !r.seen {
			r.seen, r.module, r.param, r.at = true, module, param, at
			return
		}
		if r.module != module {
			r.module = -1
		}
		if r.param != param {
			r.param = noParam
		}
		if at == token.NoPos {
			r.at = token.NoPos
		}
	}
	returns(fn.Body, nil, func(ret *ast.ReturnStmt, before []ast.Stmt) {
		if len(ret.Results) == 1 && n > 1 { // return load(p)
			var rf ReturnsFunction
			if call := asCall(ret.Results[0]); call != nil {
				rf, _ = a.funcResults.Of(a.callee(call))
			}
			covered := map[int]bool{}
			for _, h := range rf.Handles {
				covered[h.Result] = true
				at := token.NoPos
				if h.Unloaded {
					at = h.at
				}
				note(h.Result, h.Module, noParam, at)
			}
			for i := range res {
				res[i].bad = res[i].bad || !covered[i]
			}
			return
		}
		if len(ret.Results) != n { // a bare return of named results
			for i := range res {
				res[i].bad = true
			}
			return
		}
		for i, e := range ret.Results {
			if flow.IsNil(a.info, e) {
				continue
			}
			o, ok := origins[identObj(a.info, e)]
			if !ok {
				res[i].bad = true
				continue
			}
			module, at := -1, o.unloadedAt
			for j, e := range ret.Results {
				if o.module != nil && identObj(a.info, e) == o.module {
					module = j
				}
			}
			if at == token.NoPos && o.module != nil {
				at = a.unloadedIn(before, o.module)
			}
			param := noParam
			if o.module != nil && module < 0 {
				param = paramOf(o.module)
			}
			note(i, module, param, at)
		}
	})
	var out ReturnsFunction
	for i, r := range res {
		switch {
		case !r.seen || r.bad:
		case r.at != token.NoPos:
			out.Handles = append(out.Handles, FuncHandle{Result: i, Module: -1, Unloaded: true, at: r.at})
		case r.module >= 0:
			out.Handles = append(out.Handles, FuncHandle{Result: i, Module: r.module})
		case r.param != noParam:
			out.Handles = append(out.Handles, FuncHandle{Result: i, Module: -1, FromParam: true, Param: r.param})
		}
	}
	return out
}

// unloadedIn returns where the statements before a return (those that
// run on every path to it) unload the module in mod: a deferred unload
// (`defer C.hipModuleUnload(m)`, a deferred closure that unloads it) or an
// unload run on the spot; NoPos when none does. Unloads inside branches
// and closures that are not run in place do not count.
func (a *analysis_) unloadedIn(before []ast.Stmt, mod types.Object) token.Pos {
	for _, st := range before {
		var at token.Pos
		visit := func(n ast.Node) bool {
			if lit, ok := n.(*ast.FuncLit); ok {
				return a.idx.IsWrapper(lit) || a.idx.InPlace(lit)
			}
			if call, ok := n.(*ast.CallExpr); ok && at == token.NoPos {
				for _, m := range a.unloadsOf(call) {
					if identObj(a.info, flow.StripConversions(a.info, m)) == mod {
						at = call.Pos()
					}
				}
			}
			return at == token.NoPos
		}
		switch st := st.(type) {
		case *ast.DeferStmt:
			if lit, ok := ast.Unparen(st.Call.Fun).(*ast.FuncLit); ok && !a.idx.IsWrapper(lit) {
				// defer func() { C.hipModuleUnload(m) }(): its own
				// statements, not those under a condition (`if err !=
				// nil`: a cleanup on failure only).
				at = a.unloadedIn(lit.Body.List, mod)
			} else {
				ast.Inspect(st.Call, visit)
			}
		case *ast.ExprStmt, *ast.AssignStmt, *ast.DeclStmt:
			ast.Inspect(st, visit)
		case *ast.IfStmt:
			if st.Init != nil {
				ast.Inspect(st.Init, visit)
			}
		}
		if at != token.NoPos {
			return at
		}
	}
	return token.NoPos
}

// returns calls yield with each return statement of body (not of its
// closures) and the statements that run before it on every path to it:
// those before it in its block and in each enclosing block, with the init
// statements of the if and switch statements it is in.
func returns(st ast.Stmt, before []ast.Stmt, yield func(*ast.ReturnStmt, []ast.Stmt)) {
	list := func(stmts []ast.Stmt, before []ast.Stmt) {
		for i, s := range stmts {
			returns(s, append(before[:len(before):len(before)], stmts[:i]...), yield)
		}
	}
	with := func(init ast.Stmt) []ast.Stmt {
		if init == nil {
			return before
		}
		return append(before[:len(before):len(before)], init)
	}
	switch st := st.(type) {
	case *ast.ReturnStmt:
		yield(st, before)
	case *ast.BlockStmt:
		list(st.List, before)
	case *ast.LabeledStmt:
		returns(st.Stmt, before, yield)
	case *ast.IfStmt:
		returns(st.Body, with(st.Init), yield)
		if st.Else != nil {
			returns(st.Else, with(st.Init), yield)
		}
	case *ast.ForStmt:
		returns(st.Body, with(st.Init), yield)
	case *ast.RangeStmt:
		returns(st.Body, before, yield)
	case *ast.SwitchStmt:
		returns(st.Body, with(st.Init), yield)
	case *ast.TypeSwitchStmt:
		returns(st.Body, with(st.Init), yield)
	case *ast.SelectStmt:
		returns(st.Body, before, yield)
	case *ast.CaseClause:
		list(st.Body, before)
	case *ast.CommClause:
		list(st.Body, before)
	}
}

// unloadedResults records, at call (a call of fn, in an assignment), the
// handles fn returns: one taken from a module fn also returns is tied to
// the variable that receives that module (funcs), so a launch of it after
// that module's unload is found here; one whose module fn unloaded before
// returning is dead on arrival (deadFuncs).
func (fa *funcAnalysis) unloadedResults(call *ast.CallExpr, fn *types.Func) {
	rf, ok := fa.funcResults.Of(fn)
	if !ok {
		return
	}
	var lhs []ast.Expr
	switch p := flow.Parent(fa.fn.Body, call).(type) {
	case *ast.AssignStmt:
		if len(p.Rhs) == 1 {
			lhs = p.Lhs
		}
	case *ast.ValueSpec:
		if len(p.Values) == 1 {
			lhs = identExprs(p.Names)
		}
	}
	if lhs == nil {
		return
	}
	if fa.origins == nil {
		fa.origins = fa.handleOrigins(fa.fn.Body) // the variables written once
	}
	for _, h := range rf.Handles {
		if h.Result >= len(lhs) || h.Module >= len(lhs) {
			continue
		}
		obj := identObj(fa.info, lhs[h.Result])
		if _, once := fa.origins[obj]; !once {
			continue
		}
		switch {
		case h.Unloaded:
			flow.Put(&fa.deadFuncs, obj, deadFunc{callee: fn, at: h.at})
		case h.FromParam:
			if l, ok := fa.localLoc(flow.StripConversions(fa.info, fa.idx.ArgAt(call, h.Param))); ok {
				flow.Put(&fa.funcs, obj, l)
			}
		case h.Module >= 0:
			if l, ok := fa.localLoc(lhs[h.Module]); ok {
				flow.Put(&fa.funcs, obj, l)
			}
		}
	}
}

// deadFunc is a function handle a callee returned after unloading its
// module.
type deadFunc struct {
	callee *types.Func
	at     token.Pos
}

// launchOfUnloaded reports a launch of a function handle whose module the
// callee that returned it had unloaded (deadFuncs). It is reported here, at
// the launch, not at the callee's return: the launch is what fails (hiplint
// confirm sees hipErrorInvalidHandle there), a callee may be another
// package's, and one finding per launch names both ends.
func (fa *funcAnalysis) launchOfUnloaded(c *ast.CallExpr, name string, fnArg ast.Expr) {
	id, _ := ast.Unparen(flow.StripConversions(fa.info, fnArg)).(*ast.Ident)
	d, ok := fa.deadFuncs[fa.info.ObjectOf(id)]
	if !ok || id == nil {
		return
	}
	what := "unloads the module here, before it returns"
	if d.callee.Pkg() != fa.pass.Pkg {
		what = "unloads the module before it returns"
	}
	fa.reported.Reportf(UseAfterUnload, c, []diag.Related{{Pos: d.at, Message: d.callee.Name() + " " + what}},
		"%s launches %s, whose module %s unloaded before returning it; keep the module loaded until the launch is done (return it, or a function that unloads it, with the handle)",
		name, id.Name, d.callee.Name())
}

func identObj(info *types.Info, e ast.Expr) types.Object {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok || id.Name == "_" {
		return nil
	}
	return info.ObjectOf(id)
}

func identExprs(ids []*ast.Ident) []ast.Expr {
	out := make([]ast.Expr, len(ids))
	for i, id := range ids {
		out[i] = id
	}
	return out
}

func asCall(e ast.Expr) *ast.CallExpr {
	call, _ := ast.Unparen(e).(*ast.CallExpr)
	return call
}
