package modulebalance

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"sort"

	"github.com/hiplint/hiplint/internal/cgocall"
	"github.com/hiplint/hiplint/internal/diag"
	"github.com/hiplint/hiplint/internal/flow"
	"github.com/hiplint/hiplint/internal/hipapi"
	"golang.org/x/tools/go/analysis"
)

var (
	Leak = diag.Check{ID: "HL2001", Analyzer: "modulebalance", Severity: diag.Error,
		Title: "module loaded but not unloaded on every path"}
	DoubleUnload = diag.Check{ID: "HL2002", Analyzer: "modulebalance", Severity: diag.Error,
		Title: "module unloaded twice"}
	UseAfterUnload = diag.Check{ID: "HL2003", Analyzer: "modulebalance", Severity: diag.Error,
		Title: "module, function or global used after the module was unloaded"}
	UnloadUnchecked = diag.Check{ID: "HL2004", Analyzer: "modulebalance", Severity: diag.Error,
		Title: "module unloaded before its load was checked for success"}
)

// Checks lists the check IDs this analyzer reports.
var Checks = []diag.Check{Leak, DoubleUnload, UseAfterUnload, UnloadUnchecked}

var Analyzer = &analysis.Analyzer{
	Name:      "modulebalance",
	Doc:       doc,
	URL:       diag.DocsBase + "HL2001.md",
	Run:       run,
	FactTypes: []analysis.Fact{new(Unloads), new(ReturnsModule), new(Borrows), new(LoadsInto)},
	Requires:  []*analysis.Analyzer{flow.IndexAnalyzer},
}

const doc = `check that GPU modules are unloaded once on every path

Every successful hipModuleLoad, hipModuleLoadData, hipModuleLoadDataEx
(cuModuleLoad*, cuLibraryLoad*) must reach exactly one unload on every path,
unless ownership moves to the caller, a package-level variable, a field of a
type that unloads it, or a finalizer. Reports HL2001 (leak), HL2002 (double
unload), HL2003 (use after unload) and HL2004 (unload of a failed or unchecked
load).`

// Unloads is the fact that a function unloads the modules passed in the listed
// parameters (-1 is the receiver), directly or through fields of them.
// Idempotent lists those it unloads behind a guard it clears (a loaded flag,
// a zeroed handle, sync.Once): calling it again unloads nothing.
type Unloads struct{ Params, Idempotent []int }

func (*Unloads) AFact() {}
func (f *Unloads) String() string {
	if len(f.Idempotent) > 0 {
		return fmt.Sprintf("unloads%v idempotent%v", f.Params, f.Idempotent)
	}
	return fmt.Sprintf("unloads%v", f.Params)
}

// Borrows is the fact that a function only uses the modules passed in the
// listed parameters (-1 is the receiver): it neither keeps nor releases them,
// so passing a module to it is not a transfer of ownership.
type Borrows struct{ Params []int }

func (*Borrows) AFact()           {}
func (f *Borrows) String() string { return fmt.Sprintf("borrows%v", f.Params) }

// ReturnsModule is the fact that a function returns a loaded module (or a value
// that owns one) as result Result; Status is the index of the result that says
// whether the load succeeded (-1 when none: the function panics or exits).
type ReturnsModule struct{ Result, Status int }

func (*ReturnsModule) AFact() {}
func (f *ReturnsModule) String() string {
	return fmt.Sprintf("returnsModule(result=%d, status=%d)", f.Result, f.Status)
}

// Candidates is modulebalance in candidate mode, for hiplint confirm: unloads
// do not count, so every load the analyzer would find balanced is reported
// (HL2001 at the load) and confirm can judge the loads it found safe (the
// fixed twins) too. It is never part of the lint suite.
var Candidates = &analysis.Analyzer{
	Name:      Analyzer.Name,
	Doc:       "modulebalance in candidate mode (hiplint confirm only): every load, unloaded or not",
	Run:       func(pass *analysis.Pass) (any, error) { return analyze(pass, true) },
	FactTypes: Analyzer.FactTypes,
	Requires:  Analyzer.Requires,
}

func run(pass *analysis.Pass) (any, error) { return analyze(pass, false) }

func analyze(pass *analysis.Pass, candidates bool) (any, error) {
	if !cgocall.CallsRuntime(pass.Pkg) && !importsFacts(pass) {
		return nil, nil
	}
	a := &analysis_{pass: pass, candidates: candidates, unloads: map[*types.Func][]int{}, borrows: map[*types.Func][]int{},
		returns: map[*types.Func]ReturnsModule{}, moduleTypes: map[*types.TypeName]bool{}, loadsInto: map[*types.Func]LoadsInto{}, idempotent: map[*types.Func][]int{}, panics: map[*types.Func]bool{}, idx: flow.IndexOf(pass)}
	funcs := a.idx.Funcs()
	a.summarize(funcs)
	for _, fn := range funcs {
		if a.mentionsModules(fn) {
			newFuncAnalysis(a, fn).run()
		}
	}
	return nil, nil
}

// importsFacts reports whether any dependency exported module facts.
func importsFacts(pass *analysis.Pass) bool {
	return len(pass.AllObjectFacts()) > 0
}

type analysis_ struct {
	pass       *analysis.Pass
	candidates bool                          // Candidates: unloads do not count
	unloads    map[*types.Func][]int         // this package's unloaders
	idempotent map[*types.Func][]int         // their parameters unloaded behind a guard
	panics     map[*types.Func]bool          // this package's functions that call panic
	finalized  map[*types.TypeName]bool      // types the package sets finalizers on (lazy)
	borrows    map[*types.Func][]int         // this package's borrowers
	returns    map[*types.Func]ReturnsModule // this package's module constructors
	loadsInto  map[*types.Func]LoadsInto     // this package's loaders into parameters
	// moduleTypes are the package's named types that its constructors return
	// modules in (`type Module uintptr`): their methods borrow or unload.
	moduleTypes map[*types.TypeName]bool
	idx         *flow.Index // functions and runtime calls
}

// callee returns the static callee of call (functions and concrete methods).
func (a *analysis_) callee(call *ast.CallExpr) *types.Func {
	return flow.Callee(a.pass.TypesInfo, call)
}

// unloadParams returns the parameters fn unloads (-1: receiver).
func (a *analysis_) unloadParams(fn *types.Func) []int {
	if fn == nil {
		return nil
	}
	if ps, ok := a.unloads[fn]; ok {
		return ps
	}
	var f Unloads
	if flow.ImportedFact(a.pass, fn, &f) {
		return f.Params
	}
	return nil
}

// idempotentParams returns the parameters fn unloads idempotently.
func (a *analysis_) idempotentParams(fn *types.Func) []int {
	if fn == nil {
		return nil
	}
	if _, ok := a.unloads[fn]; ok {
		return a.idempotent[fn]
	}
	var f Unloads
	if flow.ImportedFact(a.pass, fn, &f) {
		return f.Idempotent
	}
	return nil
}

// borrowParams returns the parameters fn only borrows (-1: receiver).
func (a *analysis_) borrowParams(fn *types.Func) []int {
	if fn == nil {
		return nil
	}
	if ps, ok := a.borrows[fn]; ok {
		return a.notLoadedInto(fn, ps)
	}
	var f Borrows
	if flow.ImportedFact(a.pass, fn, &f) {
		return f.Params
	}
	return nil
}

// notLoadedInto returns the parameters in ps that fn loads no module into.
func (a *analysis_) notLoadedInto(fn *types.Func, ps []int) []int {
	li := a.loadsInto[fn]
	if len(li.Params) == 0 {
		return ps
	}
	return slices.DeleteFunc(slices.Clone(ps), func(i int) bool { return slices.Contains(li.Params, i) })
}

// borrowedExprs returns the arguments (and receiver) of call that the callee
// only borrows.
func (a *analysis_) borrowedExprs(call *ast.CallExpr) []ast.Expr {
	return argsAt(call, a.borrowParams(a.callee(call)))
}

func argsAt(call *ast.CallExpr, params []int) []ast.Expr {
	var out []ast.Expr
	for _, p := range params {
		if p == -1 {
			if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
				out = append(out, sel.X)
			}
		} else if p < len(call.Args) {
			out = append(out, call.Args[p])
		}
	}
	return out
}

func (a *analysis_) returnsModule(fn *types.Func) (ReturnsModule, bool) {
	if fn == nil {
		return ReturnsModule{}, false
	}
	if r, ok := a.returns[fn]; ok {
		return r, true
	}
	var f ReturnsModule
	if flow.ImportedFact(a.pass, fn, &f) {
		return f, true
	}
	return ReturnsModule{}, false
}

// unloadedExprs returns the module expressions that call unloads: the module
// argument of a runtime unload, or the arguments a fact says are unloaded.
func (a *analysis_) unloadedExprs(call *ast.CallExpr) []ast.Expr {
	if c := a.idx.Match(call); c != nil {
		if c.Func.Role == hipapi.ModuleUnload {
			if m := c.Arg(c.Func.Module); m != nil {
				return []ast.Expr{m}
			}
		}
		return nil
	}
	return argsAt(call, a.unloadParams(a.callee(call)))
}

// rootObj returns the variable an expression x, x.f.g, *x or &x is rooted at.
func rootObj(info *types.Info, e ast.Expr) types.Object {
	e = flow.StripConversions(info, e)
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.Ident:
			if v, ok := info.Uses[x].(*types.Var); ok {
				return v
			}
			if v, ok := info.Defs[x].(*types.Var); ok {
				return v
			}
			return nil
		case *ast.SelectorExpr:
			if sel, ok := info.Selections[x]; !ok || sel.Kind() != types.FieldVal {
				return nil
			}
			e = x.X
		case *ast.StarExpr:
			e = x.X
		case *ast.IndexExpr: // mods[i]: an element of what mods holds
			e = x.X
		case *ast.UnaryExpr:
			if x.Op != token.AND {
				return nil
			}
			e = x.X
		default:
			return nil
		}
	}
}

// summarize computes this package's unloader and constructor summaries to a
// fixpoint and exports them as facts.
func (a *analysis_) summarize(funcs []flow.Func) {
	info := a.pass.TypesInfo
	// A summary depends on the summaries of the package's functions the body
	// refers to (and on facts, which are fixed): after the first round, a
	// function is looked at again only when one of those changed.
	callers := map[*types.Func][]int{}
	dirty := make([]bool, len(funcs))
	for i, fn := range funcs {
		if fn.Object(info) == nil {
			continue
		}
		dirty[i] = true
		for callee := range flow.LocalRefs(a.pass, a.idx, nil, fn.Body) {
			callers[callee] = append(callers[callee], i)
		}
	}
	// Summaries only grow with their callees' except where a load
	// cancels an unload; the bound keeps a pair of functions that feed each
	// other such changes from cycling forever.
	maxRounds := 4*len(funcs) + 8
	for changed, round := true, 0; changed && round < maxRounds; round++ {
		changed = false
		for i, fn := range funcs {
			if !dirty[i] {
				continue
			}
			dirty[i] = false
			obj := fn.Object(info)
			sig := obj.Signature()
			this := false
			// Loads, unloads and constructors need a module call in the
			// body (one walk that stops at the first); most functions
			// have none.
			mentions := a.mentionsModules(fn)
			if mentions {
				// Compared whole, not by size: the unloads shrink when a
				// parameter turns out to be loaded into too (a Reload), and
				// a loader's adds or status may change with its callees'.
				if ps := a.findUnloadedParams(fn, sig); !slices.Equal(ps, a.unloads[obj]) {
					a.unloads[obj] = ps
					a.idempotent[obj] = a.findGuardedParams(fn, sig, ps)
					this = true
				}
				if li, old := a.findLoadedParams(fn, sig), a.loadsInto[obj]; !slices.Equal(li.Params, old.Params) || !slices.Equal(li.Adds, old.Adds) || li.Status != old.Status {
					a.loadsInto[obj] = li
					this = true
				}
			}
			if ps := a.findBorrowedParams(fn, sig); len(ps) > len(a.borrows[obj]) {
				a.borrows[obj] = ps
				this = true
			}
			if _, done := a.returns[obj]; !done && mentions {
				if r, ok := a.findReturnedModule(fn, sig); ok {
					a.returns[obj] = r
					this = true
					if a.addModuleType(sig, r.Result) {
						// Borrowers of the new type are found only now.
						for j := range funcs {
							dirty[j] = funcs[j].Object(info) != nil
						}
					}
				}
			}
			if this {
				changed = true
				for _, j := range callers[obj] {
					dirty[j] = true
				}
			}
		}
	}
	for fn, ps := range a.unloads {
		if len(ps) > 0 {
			a.pass.ExportObjectFact(fn, &Unloads{Params: ps, Idempotent: a.idempotent[fn]})
		}
	}
	for fn, ps := range a.borrows {
		// A parameter the function loads or adds a module into is not
		// borrowed: the caller's variable gets a module.
		ps = a.notLoadedInto(fn, ps)
		a.borrows[fn] = ps
		if len(ps) > 0 {
			a.pass.ExportObjectFact(fn, &Borrows{Params: ps})
		}
	}
	for fn, li := range a.loadsInto {
		if len(li.Params) > 0 {
			a.pass.ExportObjectFact(fn, &LoadsInto{Params: li.Params, Status: li.Status, Adds: li.Adds})
		}
	}
	for fn, r := range a.returns {
		a.pass.ExportObjectFact(fn, &ReturnsModule{Result: r.Result, Status: r.Status})
	}
}

// addModuleType records the named type of sig's result i (or of what it
// points to) as one that holds a module, and reports whether it is new.
// Only the package's own types count: another package's borrowers come with
// their facts.
func (a *analysis_) addModuleType(sig *types.Signature, i int) bool {
	if i < 0 || i >= sig.Results().Len() {
		return false
	}
	t := types.Unalias(sig.Results().At(i).Type())
	if p, ok := t.Underlying().(*types.Pointer); ok && !isNamed(t) {
		t = types.Unalias(p.Elem())
	}
	n, ok := t.(*types.Named)
	if !ok || n.Obj().Pkg() != a.pass.Pkg || a.moduleTypes[n.Obj()] {
		return false
	}
	a.moduleTypes[n.Obj()] = true
	return true
}

func isNamed(t types.Type) bool {
	_, ok := types.Unalias(t).(*types.Named)
	return ok
}

// findUnloadedParams returns the parameters fn unloads, less those it also
// loads into (a Reload leaves the caller's obligation as it was).
func (a *analysis_) findUnloadedParams(fn flow.Func, sig *types.Signature) []int {
	loaded, _, _ := a.loadedParamSet(fn, sig)
	var out []int
	for _, i := range a.rawUnloadedParams(fn, sig) {
		if !loaded[i] {
			out = append(out, i)
		}
	}
	return out
}

func (a *analysis_) rawUnloadedParams(fn flow.Func, sig *types.Signature) []int {
	set := map[int]bool{}
	ranged := rangedVars(a.pass.TypesInfo, fn.Body)
	aliases, _ := paramAliases(a.pass.TypesInfo, fn.Body, sig)
	for alias, p := range aliases {
		ranged[alias] = p
	}
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		if lit, ok := n.(*ast.FuncLit); ok {
			return !cgocall.IsWrapper(a.pass.TypesInfo, lit)
		}
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		for _, m := range a.unloadedExprs(call) {
			if root := rootObj(a.pass.TypesInfo, m); root != nil {
				if x, ok := ranged[root]; ok {
					root = x // for _, m := range mods { unload(m) }
				}
				if i, ok := flow.ParamIndex(sig, root); ok {
					set[i] = true
				}
			}
		}
		return true
	})
	out := make([]int, 0, len(set))
	for i := range set {
		out = append(out, i)
	}
	sort.Ints(out)
	return out
}

// findBorrowedParams returns the module-holding parameters that fn uses only
// in runtime calls, nil comparisons, field stores and calls to other
// borrowers: parameters it neither keeps nor releases.
func (a *analysis_) findBorrowedParams(fn flow.Func, sig *types.Signature) []int {
	info := a.pass.TypesInfo
	candidates := map[types.Object]int{}
	if sig.Recv() != nil && a.holdsModule(sig.Recv().Type()) {
		candidates[sig.Recv()] = -1
	}
	for i := range sig.Params().Len() {
		if p := sig.Params().At(i); a.holdsModule(p.Type()) {
			candidates[p] = i
		}
	}
	if len(candidates) == 0 {
		return nil
	}
	var safe []flow.PosRange
	cover := func(es ...ast.Expr) {
		for _, e := range es {
			safe = append(safe, flow.PosRange{Pos: e.Pos(), End: e.End()})
		}
	}
	// mod := C.CUmodule(unsafe.Pointer(uintptr(m))): mod stands for m.
	// Only aliases that still hold the module: u := uintptr(unsafe.Pointer(m.h))
	// returned is the handle escaping.
	aliases, defs := paramAliases(info, fn.Body, sig)
	for alias, p := range aliases {
		if i, ok := candidates[p]; ok && a.holdsModule(alias.Type()) {
			candidates[alias] = i
			cover(defs[alias])
		}
	}
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.CallExpr:
			if c := a.idx.Match(x); c != nil {
				for i, arg := range c.Args {
					if out, ok := c.Func.Out.Index(); !ok || i != out || c.Func.Role != hipapi.ModuleLoad {
						cover(arg)
					}
				}
				return true
			}
			cover(a.borrowedExprs(x)...)
		case *ast.BinaryExpr:
			if (x.Op == token.EQL || x.Op == token.NEQ) && (flow.IsNil(info, x.X) || flow.IsNil(info, x.Y)) {
				cover(x)
			}
		case *ast.AssignStmt:
			for _, l := range x.Lhs {
				if _, ok := ast.Unparen(l).(*ast.SelectorExpr); ok {
					cover(l)
				}
			}
		case *ast.SelectorExpr:
			// Reading a plain field (a flag, a size) does not let the module escape.
			if tv, ok := info.Types[x]; ok && !a.holdsModule(tv.Type) {
				if sel, ok := info.Selections[x]; ok && sel.Kind() == types.FieldVal {
					cover(x)
				}
			}
		}
		return true
	})
	escaped := map[types.Object]bool{}
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		id, ok := n.(*ast.Ident)
		if !ok {
			return true
		}
		obj := info.Uses[id]
		if _, ok := candidates[obj]; !ok {
			return true
		}
		for _, r := range safe {
			if r.Contains(id.Pos()) {
				return true
			}
		}
		escaped[obj] = true
		return true
	})
	unloaded := a.unloads[fn.Object(info)]
	escapedParam := map[int]bool{}
	for obj, i := range candidates {
		if escaped[obj] {
			escapedParam[i] = true
		}
	}
	var out []int
	for obj, i := range candidates {
		if _, isAlias := aliases[obj]; !isAlias && !escapedParam[i] && !slices.Contains(unloaded, i) {
			out = append(out, i)
		}
	}
	sort.Ints(out)
	return out
}

// holdsModule reports whether values of t may hold a module handle: the C
// handle types, the package's own module types (the results of its module
// constructors: `type Module uintptr`), or pointers to and structs
// containing them.
func (a *analysis_) holdsModule(t types.Type) bool {
	return a.holds(t, map[types.Type]bool{})
}

func (a *analysis_) holds(t types.Type, seen map[types.Type]bool) bool {
	if t == nil || seen[t] { // nil: an expression go/types left untyped at tier 3
		return false
	}
	seen[t] = true
	if n, ok := types.Unalias(t).(*types.Named); ok && a.moduleTypes[n.Obj()] {
		return true
	}
	for _, name := range []string{"hipModule_t", "CUmodule", "CUlibrary", "cudaLibrary_t"} {
		if cgocall.IsCType(t, name) {
			return true
		}
	}
	switch u := t.Underlying().(type) {
	case *types.Pointer:
		return a.holds(u.Elem(), seen)
	case *types.Struct:
		for i := range u.NumFields() {
			if a.holds(u.Field(i).Type(), seen) {
				return true
			}
		}
	}
	return false
}

// findReturnedModule finds a local variable that receives a loaded module and
// is returned (itself, its address, or inside a composite literal).
func (a *analysis_) findReturnedModule(fn flow.Func, sig *types.Signature) (ReturnsModule, bool) {
	info := a.pass.TypesInfo
	loaded := map[types.Object]bool{}
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false // cgo wrappers are matched at their call; closures are other functions
		case *ast.CallExpr:
			if c := a.idx.Match(n); c != nil && c.Func.Role == hipapi.ModuleLoad {
				if root := rootObj(info, c.Arg(c.Func.Out)); root != nil && isLocal(root, fn.Body) {
					loaded[root] = true
				}
			}
			if li, ok := a.loadsIntoOf(a.callee(n)); ok {
				for _, e := range argsAt(n, li.Params) {
					if root := rootObj(info, e); root != nil && isLocal(root, fn.Body) {
						loaded[root] = true
					}
				}
			}
		case *ast.AssignStmt:
			if len(n.Rhs) == 1 {
				if call, ok := ast.Unparen(n.Rhs[0]).(*ast.CallExpr); ok {
					if r, ok := a.returnsModule(a.callee(call)); ok && r.Result < len(n.Lhs) {
						if root := rootObj(info, n.Lhs[r.Result]); root != nil {
							loaded[root] = true
						}
					}
				}
			}
		}
		return true
	})
	if len(loaded) == 0 || storedElsewhere(info, fn.Body, loaded) || a.cleanedUpByTest(fn.Body, loaded) {
		return ReturnsModule{}, false
	}
	result := -1
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			for i, r := range n.Results {
				if returnsValueOf(info, flow.StripConversions(info, r), loaded) && result == -1 {
					result = i
				}
			}
		}
		return true
	})
	if result == -1 {
		return ReturnsModule{}, false
	}
	status := -1
	for i := sig.Results().Len() - 1; i >= 0; i-- {
		if isStatusType(sig.Results().At(i).Type()) {
			status = i
			break
		}
	}
	return ReturnsModule{Result: result, Status: status}, true
}

// returnsValueOf reports whether e is one of objs, its address, or a
// composite literal holding one.
func returnsValueOf(info *types.Info, e ast.Expr, objs map[types.Object]bool) bool {
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		return objs[info.Uses[x]]
	case *ast.UnaryExpr:
		return x.Op == token.AND && returnsValueOf(info, x.X, objs)
	case *ast.CompositeLit:
		for _, elt := range x.Elts {
			if kv, ok := elt.(*ast.KeyValueExpr); ok {
				elt = kv.Value
			}
			if returnsValueOf(info, elt, objs) {
				return true
			}
		}
	}
	return false
}

// storedElsewhere reports whether any of objs is also stored (assigned or
// sent) somewhere: then a cache or another owner keeps it, and callers of the
// function do not own what it returns.
func storedElsewhere(info *types.Info, body *ast.BlockStmt, objs map[types.Object]bool) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return !cgocall.IsWrapper(info, n) // cgo's temporaries are not stores
		case *ast.AssignStmt:
			for _, r := range n.Rhs {
				if returnsValueOf(info, r, objs) {
					found = true
				}
				// c.modules = append(c.modules, m): a context keeps it too.
				if call, ok := ast.Unparen(r).(*ast.CallExpr); ok && isBuiltin(info, call, "append") && len(call.Args) > 1 {
					for _, arg := range call.Args[1:] {
						found = found || returnsValueOf(info, arg, objs)
					}
				}
			}
		case *ast.SendStmt:
			found = found || returnsValueOf(info, n.Value, objs)
		}
		return !found
	})
	return found
}

// isStatusType reports whether t carries a load's success: error or a C status enum.
func isStatusType(t types.Type) bool {
	if t == nil || t == types.Typ[types.Invalid] {
		// A C type at tier 3 (cgo failed), or an expression go/types left
		// untyped there: it may be the status, so checks of it count.
		return true
	}
	errType := types.Universe.Lookup("error").Type()
	if types.Identical(t, errType) {
		return true
	}
	// A named error interface (type Result interface{ error; Code() uint32 })
	// is nil exactly when the error it converts to is.
	if _, isIface := t.Underlying().(*types.Interface); isIface && types.Implements(t, errType.Underlying().(*types.Interface)) {
		return true
	}
	for _, name := range []string{"hipError_t", "cudaError_t", "CUresult"} {
		if cgocall.IsCType(t, name) {
			return true
		}
	}
	return false
}

func isLocal(obj types.Object, body *ast.BlockStmt) bool {
	return obj.Pos() >= body.Pos() && obj.Pos() < body.End()
}

// mentionsModules reports whether fn loads, unloads or borrows a module, so
// that functions without any are not analyzed further.
func (a *analysis_) mentionsModules(fn flow.Func) bool {
	info := a.pass.TypesInfo
	found := false
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		if found {
			return false
		}
		if lit, ok := n.(*ast.FuncLit); ok {
			// Closures run in place (ctx.Do) may load for this function.
			return !cgocall.IsWrapper(info, lit)
		}
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		if c := a.idx.Match(call); c != nil {
			switch c.Func.Role {
			case hipapi.ModuleLoad, hipapi.ModuleUnload, hipapi.ModuleGetFunction, hipapi.ModuleGetGlobal, hipapi.Launch:
				found = true
			}
			return !found
		}
		fn := a.callee(call)
		if _, ok := a.returnsModule(fn); ok || len(a.unloadParams(fn)) > 0 {
			found = true
		}
		if _, ok := a.loadsIntoOf(fn); ok {
			found = true
		}
		return !found
	})
	return found
}

// isBuiltin reports whether call calls the builtin name.
func isBuiltin(info *types.Info, call *ast.CallExpr, name string) bool {
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok {
		return false
	}
	b, ok := info.Uses[id].(*types.Builtin)
	return ok && b.Name() == name
}
