package modulebalance

import (
	"fmt"
	"go/ast"
	"go/types"
	"maps"
	"reflect"
	"slices"

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
	FactTypes: []analysis.Fact{new(Unloads), new(ReturnsModule), new(Borrows), new(LoadsInto), new(Lends), new(ReturnsFunction), new(Launches)},
	Requires:  []*analysis.Analyzer{flow.IndexAnalyzer, flow.Getters},
	// The functions it left out, over their budget (flow.Budget).
	ResultType: reflect.TypeFor[flow.Notes](),
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
	return flow.FactText(" ", "unloads%s", fmt.Sprint(f.Params), "idempotent%s", listText(f.Idempotent))
}

// Borrows is the fact that a function only uses the modules passed in the
// listed parameters (-1 is the receiver): it neither keeps nor releases them,
// so passing a module to it is not a transfer of ownership.
type Borrows struct{ Params, Uses []int } // Uses: those it hands to the runtime to look into (usesOf)

func (*Borrows) AFact() {}
func (f *Borrows) String() string {
	return flow.FactText(" ", "borrows%s", fmt.Sprint(f.Params), "uses%s", listText(f.Uses))
}

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
	Name:       Analyzer.Name,
	Doc:        "modulebalance in candidate mode (hiplint confirm only): every load, unloaded or not",
	Run:        func(pass *analysis.Pass) (any, error) { return analyze(pass, true) },
	FactTypes:  Analyzer.FactTypes,
	Requires:   Analyzer.Requires,
	ResultType: Analyzer.ResultType,
}

func run(pass *analysis.Pass) (any, error) { return analyze(pass, false) }

func analyze(pass *analysis.Pass, candidates bool) (any, error) {
	if !flow.IsInvolved(pass) {
		return flow.Notes(nil), nil
	}
	impls := flow.NewImpls(pass)
	a := &analysis_{pass: pass, info: pass.TypesInfo, candidates: candidates, idx: flow.IndexOf(pass),
		unloads: flow.NewTable[Unloads](pass, impls), borrows: flow.NewTable[Borrows](pass, impls),
		returns: flow.NewTable[ReturnsModule](pass, nil), loadsInto: flow.NewTable[LoadsInto](pass, nil),
		lends:       flow.NewTable[Lends](pass, nil),
		funcResults: flow.NewTable[ReturnsFunction](pass, nil),
		launches:    flow.NewTable[Launches](pass, impls),
		budget:      flow.NewBudget(),
		cFields:     flow.CTypedFields(pass.Pkg, pass.TypesInfo, pass.Files, hipapi.ModuleTypes)}
	a.funcFields = a.idx.FieldPairs(pass.Pkg, func(call *ast.CallExpr) (ast.Expr, ast.Expr, bool) {
		if c := a.idx.Match(call); c != nil && c.Func.Role == hipapi.ModuleGetFunction {
			return c.Arg(c.Func.Out), c.Arg(c.Func.Module), c.Arg(c.Func.Out) != nil && c.Arg(c.Func.Module) != nil
		}
		return nil, nil, false
	})
	// A call through an interface (or a type parameter's constraint) unloads
	// or borrows what every implementation the package can see does.
	all := func(int) bool { return true }
	a.unloads.Meet = func(fs []Unloads) Unloads {
		return Unloads{Params: flow.MeetLists(fs, func(f Unloads) []int { return f.Params }, all),
			Idempotent: flow.MeetLists(fs, func(f Unloads) []int { return f.Idempotent }, all)}
	}
	a.borrows.Meet = func(fs []Borrows) Borrows {
		return Borrows{Params: flow.MeetLists(fs, func(f Borrows) []int { return f.Params }, all),
			Uses: flow.MeetLists(fs, func(f Borrows) []int { return f.Uses }, all)}
	}
	a.launches.Meet = func(fs []Launches) Launches {
		return Launches{Params: flow.MeetLists(fs, func(f Launches) []int { return f.Params }, all)}
	}
	a.loadsInto.Empty = func(li LoadsInto) bool { return len(li.Params) == 0 }
	// This package's summaries, to a fixpoint (flow.Summaries), exported as
	// facts. A constructor found for a new module type of the package makes
	// the borrowers of that type findable: the package is solved again, as
	// often as the set of module types grows (it only grows, and is bounded
	// by the package's named types).
	funcs := a.idx.Funcs()
	a.solveLaunches(funcs) // launches.go; usesOf reads it
	s := flow.Summaries[summary]{Pass: a.pass, Index: a.idx, Impls: impls, Analyze: a.summarizeFunc, Update: a.update}
	for grown := true; grown; {
		n := len(a.moduleTypes)
		s.Solve(funcs)
		grown = len(a.moduleTypes) > n
	}
	a.solveFuncResults(funcs) // funcresults.go
	flow.ExportAll(flow.Objects(a.info, funcs), a.unloads, a.borrows, a.loadsInto, a.returns, a.lends, a.funcResults, a.launches)
	for _, fn := range funcs {
		if a.mentionsModules(fn, false) {
			newFuncAnalysis(a, fn).run()
		}
	}
	return a.budget.Notes(), nil
}

type analysis_ struct {
	// budget bounds the path analysis of each function and of the package
	// (flow.Budget); the functions over it are the analyzer's result.
	budget     *flow.Budget
	pass       *analysis.Pass
	info       *types.Info
	candidates bool                     // Candidates: unloads do not count
	panics     flow.PanicCalls          // calls to this package's functions that panic
	finalized  map[*types.TypeName]bool // types the package sets finalizers on (lazy)
	// The summaries: this package's, else the imported facts.
	unloads   *flow.Table[Unloads, *Unloads]
	borrows   *flow.Table[Borrows, *Borrows]
	returns   *flow.Table[ReturnsModule, *ReturnsModule]
	loadsInto *flow.Table[LoadsInto, *LoadsInto]
	lends     *flow.Table[Lends, *Lends]
	// funcResults: the function handles functions return (funcresults.go).
	funcResults *flow.Table[ReturnsFunction, *ReturnsFunction]
	// launches: the function handles functions launch (launches.go).
	launches *flow.Table[Launches, *Launches]
	// moduleTypes are the package's named types that its constructors return
	// modules in (`type Module uintptr`): their methods borrow or unload.
	moduleTypes map[*types.TypeName]bool
	idx         *flow.Index         // functions and runtime calls
	cFields     map[*types.Var]bool // at tier 3, fields declared with a C module type (no type there)
	gone        *initGone           // what the package's inits leave unloaded (initUnloaded), on first use
	// mentions: for a package-level variable, the package's functions whose
	// bodies name it (mentioning), on first use.
	mentions map[*types.Var]map[*types.Func]bool
	// funcFields: a field holding function handles that
	// hipModuleGetFunction takes from the module in a field of the same
	// value (k.fn from k.mod, flow.FieldPairs), to that module's field.
	funcFields map[*types.Var]*types.Var
	// optionBorrows: for a named function type of the package, the
	// parameters every function the package makes of it borrows
	// (funcValueBorrows), on first use.
	optionBorrows map[*types.TypeName][]int
}

// callee returns the static callee of call (functions and concrete methods).
func (a *analysis_) callee(call *ast.CallExpr) *types.Func {
	return a.idx.Callee(call)
}

// unloadsOf returns the module expressions that call unloads: the module
// argument of a runtime unload, or the arguments a fact says are unloaded.
func (a *analysis_) unloadsOf(call *ast.CallExpr) []ast.Expr {
	if c := a.idx.Match(call); c != nil && c.Func.Role == hipapi.ModuleUnload && c.Arg(c.Func.Module) != nil {
		return []ast.Expr{c.Arg(c.Func.Module)}
	}
	return a.idx.ArgsAt(call, a.unloads.Get(a.callee(call)).Params) // none for other runtime calls
}

// usesOf returns the module expressions that call hands to the runtime to
// look into: the module of hipModuleGetFunction or hipModuleGetGlobal, or
// what a callee does (Borrows.Uses).
func (a *analysis_) usesOf(call *ast.CallExpr) []ast.Expr {
	if c := a.idx.Match(call); c != nil && (c.Func.Role == hipapi.ModuleGetFunction || c.Func.Role == hipapi.ModuleGetGlobal) {
		return []ast.Expr{c.Arg(c.Func.Module)}
	} else if c != nil && c.Func.Role == hipapi.Launch {
		// A launch of k.fn looks into k's module (funcFields).
		if sel, _, ok := a.funcField(c.Arg(c.Func.Function)); ok {
			return []ast.Expr{sel.X}
		}
		return nil
	}
	out := a.idx.ArgsAt(call, a.borrows.Get(a.callee(call)).Uses)
	// A helper that launches k.fn looks into k's module, as the launch.
	for _, arg := range a.launchedArgs(call) {
		for _, h := range launchedHandles(arg) {
			if sel, _, ok := a.funcField(h); ok {
				out = append(out, sel.X)
			}
		}
	}
	return out
}

// funcField returns, for e selecting a field that holds function handles
// of the module in another field of the same value (funcFields: k.fn), the
// selection and that module field.
func (a *analysis_) funcField(e ast.Expr) (*ast.SelectorExpr, *types.Var, bool) {
	if e == nil {
		return nil, nil, false
	}
	sel, ok := flow.StripConversions(a.info, e).(*ast.SelectorExpr)
	if !ok {
		return nil, nil, false
	}
	v, _ := a.info.ObjectOf(sel.Sel).(*types.Var)
	m, ok := a.funcFields[v]
	return sel, m, ok && v != nil
}

// unloadsRecv reports whether fn unloads the modules of its receiver.
func (a *analysis_) unloadsRecv(fn *types.Func) bool {
	return slices.Contains(a.unloads.Get(fn).Params, flow.Receiver)
}

// summary is one analysis of a function for its summaries.
type summary struct {
	mentions bool // it loads, unloads or uses modules (else unloads and loads are the last ones, unchanged)
	unloads  Unloads
	loads    LoadsInto
	borrows  Borrows
	returns  *ReturnsModule
	lends    Lends
}

func (a *analysis_) summarizeFunc(fn flow.Func) summary {
	sig := fn.Signature(a.info)
	// Loads, unloads and constructors need a module call in the body (one
	// walk that stops at the first); most functions have none.
	out := summary{mentions: a.mentionsModules(fn, true)}
	aliases, defs := flow.ParamAliases(a.idx, a.info, fn.Body, sig)
	// The parameters fn both unloads and loads into (a Reload): the module it
	// unloads and the one it loads stay the caller's, so those calls borrow
	// them.
	reload := map[types.Object]bool{}
	if out.mentions {
		raw := flow.ParamsOf(a.info, fn.Body, sig, flow.ReleasedRoots(a.idx, a.info, fn.Body, a.unloadsOf), aliases)
		out.borrows.Uses = flow.ParamsOf(a.info, fn.Body, sig, flow.ReleasedRoots(a.idx, a.info, fn.Body, a.usesOf), aliases)
		// fn's local variables that receive a loaded module (closures left out).
		loaded := a.loadTargets(fn.Body, false)
		maps.DeleteFunc(loaded, func(v types.Object, _ bool) bool { return !flow.Declares(fn.Body, v) })
		// The pointer parameters (and receiver) that fn loads a module
		// into, through a field (`&m.h`), a store of a module it loaded into
		// a local (flow.StoresOf) or a callee that does, each with whether
		// it replaces the module the parameter holds (false: it only adds
		// to what it holds, by appends and map stores; LoadsInto.Adds).
		replaces := map[int]bool{}
		mark := func(e ast.Expr, add bool) {
			if i, ok := flow.PointerParam(a.info, sig, e); ok {
				replaces[i] = replaces[i] || !add
			}
		}
		a.loadsIn(fn.Body, false, func(e ast.Expr, k loadKind) {
			switch k {
			case runtimeLoad:
				if x, isField := ast.Unparen(flow.Addressed(e)).(*ast.SelectorExpr); isField {
					mark(x, false)
				}
			case fills, addsTo:
				mark(e, k == addsTo)
			}
		})
		for _, st := range flow.StoresOf(a.info, fn.Body, loaded, a.holdsModule) {
			mark(st.To, st.Add) // p.mods = append(p.mods, m), p.m = m
		}
		// Those fn also unloads are left out (a Reload: the caller's
		// obligation does not change), and so are those it hands to a
		// finalizer (flow.FinalizedVars), or of a type the package sets a
		// finalizer (or a cleanup) on: the finalizer then owns the module.
		finalized := flow.FinalizedVars(a.info, fn.Body)
		out.loads.Status = flow.LastResult(sig, flow.IsStatus)
		for _, i := range slices.Sorted(maps.Keys(replaces)) {
			p := flow.ParamVar(sig, i)
			reload[p] = slices.Contains(raw, i)
			if reload[p] || slices.Contains(finalized, p) {
				continue
			}
			// The package's finalized types, on first use.
			if a.finalized == nil {
				a.finalized = flow.FinalizedTypes(a.info, a.idx.Funcs())
			}
			if n := flow.NamedOf(p.Type()); n != nil && a.finalized[n.Obj()] {
				continue
			}
			out.loads.Params = append(out.loads.Params, i)
			if !replaces[i] {
				out.loads.Adds = append(out.loads.Adds, i)
			}
		}
		// A Reload leaves the caller's obligation as it was: a parameter
		// loaded into too is not unloaded.
		out.unloads.Params = slices.DeleteFunc(slices.Clone(raw), func(i int) bool { return reload[flow.ParamVar(sig, i)] })
		// Those unloaded behind a guard the function clears: an idempotent
		// Close, which the HL2002 page recommends.
		out.unloads.Idempotent = flow.IdempotentParams(a.info, fn.Body, sig, out.unloads.Params, aliases, a.unloadsOf)
		// A constructor: one of them is returned (itself, its address, or
		// inside a composite literal), kept nowhere else.
		if len(loaded) > 0 && !flow.StoredElsewhere(a.info, fn.Body, loaded) &&
			!flow.CleanedUp(a.idx, a.info, fn.Body, loaded, a.unloadsOf, a.unloadsRecv) {
			if i, ok := flow.ReturnedResult(a.info, fn.Body, loaded); ok {
				out.returns = &ReturnsModule{Result: i, Status: flow.LastResult(sig, flow.IsStatus)}
			}
		}
		if out.returns == nil {
			out.returns = a.forwarded(fn.Body, sig)
		}
		out.lends = a.lendsOf(fn, sig)
	}
	// The module-holding parameters fn neither keeps nor releases, but for
	// those it unloads, loads or adds a module into (the caller's variable
	// gets a module).
	not := slices.Concat(out.unloads.Params, out.loads.Params)
	uses := func() []flow.PosRange { return a.borrowedUses(fn, reload) }
	borrowed := flow.BorrowedParams(a.info, fn.Body, sig, a.holdsModule, aliases, defs, uses)
	out.borrows.Params = slices.DeleteFunc(borrowed, func(i int) bool { return slices.Contains(not, i) })
	out.borrows.Uses = slices.DeleteFunc(out.borrows.Uses, func(i int) bool { return !slices.Contains(out.borrows.Params, i) })
	return out
}

func (a *analysis_) update(obj *types.Func, s summary) bool {
	changed := a.borrows.Set(obj, s.borrows)
	if s.mentions {
		changed = a.unloads.Set(obj, s.unloads) || changed
		changed = a.loadsInto.Set(obj, s.loads) || changed
		changed = a.lends.Set(obj, s.lends) || changed
	}
	if _, done := a.returns.Local(obj); !done && s.returns != nil {
		changed = a.returns.Set(obj, *s.returns) || changed
		// The named type of the result (or of what it points to) holds a
		// module. Only the package's own types count: another package's
		// borrowers come with their facts. (A function's own return
		// statements index its results: ReturnedResult.)
		n := flow.NamedOf(obj.Signature().Results().At(s.returns.Result).Type())
		if n != nil && n.Obj().Pkg() == a.pass.Pkg {
			flow.Put(&a.moduleTypes, n.Obj(), true)
		}
	}
	return changed
}

// borrowedUses returns the uses in fn of a module that neither keep nor
// release it: runtime calls, nil comparisons, field stores and calls to
// other borrowers (flow.NonEscapingUses), and the loads and unloads of a
// parameter in reload.
func (a *analysis_) borrowedUses(fn flow.Func, reload map[types.Object]bool) []flow.PosRange {
	return nonEscapingUses(a.info, fn.Body, a.holdsModule, func(n ast.Node, safe *ranges) {
		x, ok := n.(*ast.CallExpr)
		if !ok {
			return
		}
		if c := a.idx.Match(x); c != nil {
			for _, arg := range c.Args {
				if arg != c.Arg(c.Func.Out) || c.Func.Role != hipapi.ModuleLoad || reload[flow.RootVar(a.info, arg)] {
					safe.Add(arg)
				}
			}
			return
		}
		fn := a.callee(x)
		safe.Add(a.idx.ArgsAt(x, a.borrows.Get(fn).Params)...)
		for _, e := range append(a.unloadsOf(x), a.idx.ArgsAt(x, a.loadsInto.Get(fn).Params)...) {
			if reload[flow.RootVar(a.info, e)] {
				safe.Add(e)
			}
		}
	})
}

// holdsModule reports whether values of t may hold a module handle: the C
// handle types, the package's own module types (the results of its module
// constructors: `type Module uintptr`), or pointers to and structs
// containing them; at tier 3, structs with a field declared with a C handle
// type, which has no type there (a receiver a Reload unloads and loads).
func (a *analysis_) holdsModule(t types.Type) bool {
	return flow.TypeHolds(t, func(t types.Type) bool {
		n, ok := types.Unalias(t).(*types.Named)
		return ok && a.moduleTypes[n.Obj()] || cgocall.IsModuleType(t)
	}) || flow.HoldsField(t, a.cFields)
}

// moduleRoles are the runtime calls that load, unload or use modules.
var moduleRoles = []hipapi.Role{hipapi.ModuleLoad, hipapi.ModuleUnload, hipapi.ModuleGetFunction, hipapi.ModuleGetGlobal, hipapi.Launch}

// mentionsModules reports whether fn loads, unloads or borrows a module, so
// that functions without any are not analyzed further. uses: a call of a
// function that looks into its module (Borrows.Uses), or launches what it
// is passed (Launches: k.fn looks into k's module), counts, which matters
// for fn's summary only: with no load or unload of its own, fn's paths
// hold no module to check.
func (a *analysis_) mentionsModules(fn flow.Func, uses bool) bool {
	// Closures run in place (ctx.Do) may load for this function; cgo's
	// wrappers are matched at their call.
	enter := func(lit *ast.FuncLit) bool { return !a.idx.IsWrapper(lit) }
	return a.idx.FirstCall(fn.Body, enter, func(call *ast.CallExpr) bool {
		if c := a.idx.Match(call); c != nil {
			return slices.Contains(moduleRoles, c.Func.Role)
		}
		fn := a.callee(call)
		_, constructs := a.returns.Of(fn)
		_, loadsInto := a.loadsInto.Of(fn)
		return constructs || loadsInto || len(a.unloads.Get(fn).Params) > 0 || uses && (len(a.borrows.Get(fn).Uses) > 0 || len(a.launches.Get(fn).Params) > 0)
	}) != nil
}
