package modulebalance

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"github.com/hiplint/hiplint/internal/cgocall"
	"github.com/hiplint/hiplint/internal/diag"
	"github.com/hiplint/hiplint/internal/flow"
	"github.com/hiplint/hiplint/internal/hipapi"
	"golang.org/x/tools/go/analysis"
)

// What may be true of a module handle on the paths reaching a point.
type bits uint16

const (
	pending  bits = 1 << iota // loaded if the load's status says success; not yet checked
	loaded                    // holds a loaded module
	failed                    // the load failed: the handle is not a module
	unloaded                  // unloaded explicitly
	deferred                  // an unload is deferred to function exit
	escaped                   // ownership moved elsewhere (returned, stored, passed on)
	// held: the handle holds a module this function did not load (a
	// parameter's, a field's, a map's, or a local copied from one). It is
	// tracked only so that its unload is seen: a module, function or global
	// used after that unload is a use after unload (HL2003). Held modules
	// never leak here.
	held
	// byRef: the deferred unload reads the variable when it runs (a deferred
	// closure, a method with a pointer receiver), so it unloads whatever the
	// variable holds at exit, not what it held at the defer.
	byRef
	// pointee: the deferred unload is a method called on a pointer variable
	// (m := &Module{}; defer m.Close()): it sees what is loaded into the
	// struct the pointer points to, not a new value of the variable.
	pointee
	// owner: the handle is a local slice, map or field that owns the
	// modules appended or stored into it.
	owner
	// quiet: an unload (never a handle) that reports nothing.
	quiet
	// given: the module was loaded into a field of a parameter or the
	// receiver (C.hipModuleLoad(&r.m, path)): the caller's at a return,
	// but a second load into the field before an unload drops it.
	given
)

const live = pending | loaded

// flags are the bits that say how a handle is unloaded or kept, not what it
// holds.
const flags = byRef | pointee | owner

// atExit is how an unload inside a deferred closure or a test cleanup runs:
// at exit, after whatever checks the closure makes, so only balance matters
// (quiet: no findings). It unloads what the variable holds then, or the
// modules of the owner a range over it visits (flow.ThroughRange: for _, m
// := range mods { unload(m) }).
const atExit = deferred | byRef | quiet

type handle struct {
	b                 bits
	sites             []int // load sites that may have produced the handle
	status            []any // status keys: a types.Object, or the ast.Expr holding the status
	unloadAt, deferAt token.Pos
	// goUse, goUnload: where a goroutine that may still be running (not
	// joined yet on some path) was started that uses or unloads the module
	// (goroutines.go); goUnloadAt is that unload.
	goUse, goUnload, goUnloadAt token.Pos
	unloaded                    ast.Expr // what the unload at unloadAt named, as written
}

// clone returns a copy of h. Copies share their lists of sites and status
// keys, which are never changed in place (add).
func (h *handle) clone() *handle {
	c := *h
	return &c
}

// add adds load sites and status keys to h, in new lists when it adds any.
func (h *handle) add(sites []int, status []any) {
	h.sites = flow.AppendNew(slices.Clip(h.sites), sites...)
	h.status = flow.AppendNew(slices.Clip(h.status), status...)
}

// state maps each tracked handle to what may be true of it on some path.
// States share their handles: cloning a state copies the map, not the
// handles, and a handle is copied where it changes (own). The solver clones
// a state at every block and most blocks change few handles, so copying
// every handle there was about a fifth of this analyzer's allocation
// (flow.ShareValues).
type state = map[flow.Loc]*handle

// own returns l's handle in s for changing (flow.Own).
func own(s state, l flow.Loc) *handle { return flow.Own(s, l, (*handle).clone) }

// covers reports whether g already holds all that joining h into it would
// add, so that the join leaves g (which other states may share) as it is.
func (g *handle) covers(h *handle) bool {
	return g.b|h.b == g.b && cmp.Or(g.unloadAt, h.unloadAt) == g.unloadAt &&
		cmp.Or(g.deferAt, h.deferAt) == g.deferAt && cmp.Or(g.goUse, h.goUse) == g.goUse &&
		cmp.Or(g.goUnload, h.goUnload) == g.goUnload &&
		subset(h.sites, g.sites) && subset(h.status, g.status)
}

// join adds to g what h may be on other paths, and returns g.
func (g *handle) join(h *handle) *handle {
	g.b |= h.b
	g.add(h.sites, h.status)
	if g.unloadAt == token.NoPos {
		g.unloaded = h.unloaded
	}
	g.unloadAt = cmp.Or(g.unloadAt, h.unloadAt)
	g.deferAt = cmp.Or(g.deferAt, h.deferAt)
	g.goUse = cmp.Or(g.goUse, h.goUse)
	if g.goUnload == token.NoPos {
		g.goUnload, g.goUnloadAt = h.goUnload, h.goUnloadAt
	}
	return g
}

// same reports whether h and g, handles at one location, agree (as far as
// a fixpoint needs: the sites and status keys only grow).
func (h *handle) same(g *handle) bool {
	return g.b == h.b && len(g.sites) == len(h.sites) && len(g.status) == len(h.status) &&
		g.goUse == h.goUse && g.goUnload == h.goUnload
}

// loadSite is one load of a module into a tracked handle.
type loadSite struct {
	call   *ast.CallExpr
	name   string // C name of the load, or the wrapper's name
	unload string // the unload call to suggest
	at     flow.Loc
}

type funcAnalysis struct {
	*analysis_
	fn    flow.Func
	roots map[types.Object]bool // escapesIn's, reused
	sites flow.Sites[*loadSite]
	// funcs maps function and global handles to the module they came from.
	funcs map[types.Object]flow.Loc
	// deadFuncs: the function handles a callee returned after unloading
	// their module; origins: the variables written once that hold handles
	// (funcresults.go), on first use.
	deadFuncs map[types.Object]deadFunc
	origins   map[types.Object]handleOrigin
	// fnEscapes holds, while a return is checked, the modules whose
	// function handles that return hands out.
	fnEscapes map[flow.Loc]bool
	// locals and externals resolve handles rooted at the function's own
	// variables, and at its parameters and package-level variables.
	locals, externals flow.Locator
	// recovers: the function defers a closure that recovers from panics
	// and does not panic again (flow.Recovers): a panic ends in a return.
	recovers bool
	// entry holds the held handles of the entry state (run), shared.
	entry state
	// unloadRoots: the variables whose modules the function unloads.
	unloadRoots map[types.Object]bool
	// reported: the findings of the walk over the final solution
	// (flow.Replay); nil while solving, when nothing is reported.
	reported *flow.Findings
	used     flow.UsedScan[bool] // escapesIn's walk, reused
	// gos: the goroutines the function starts (goroutines.go), nil for
	// none; cleanups: the unloads in its t.Cleanup functions, which run
	// after its parallel subtests.
	gos      *concurrency
	cleanups map[token.Pos]bool
	// aliases: the fields of fresh local structs that hold a local's
	// module for the whole function (h := &Handle[int]{mod: md}): an
	// unload or use through h reaches md's handle, and h hands md on
	// where it escapes (fieldAliases).
	aliases []fieldAlias
	// resultSet: a leak being reported is of a named result that a
	// return sets before the deferred unload reads it (setResults).
	resultSet bool
	// chans: the values the function passes to itself through a channel
	// of its own (chanCopies): sending one hands it to nobody.
	chans chanCopies
}

func newFuncAnalysis(a *analysis_, fn flow.Func) *funcAnalysis {
	fa := &funcAnalysis{analysis_: a, fn: fn, recovers: flow.Recovers(a.info, fn.Body),
		used: flow.UsedScan[bool]{Holds: a.holdsModule}} // e.fn of an owner e hands on no module
	nested := flow.ClosureRanges(fa.info, fn.Body)
	sig := fn.Signature(fa.info)
	// The function's own variables, its named results included (results.go).
	// A variable given a module through a channel of the function's own
	// (got := <-ch after ch <- md) is located at the variable sent.
	fa.chans = findChanCopies(fa.info, fn.Body)
	fa.locals = flow.Locator{Info: fa.info, Index: noElements, Keep: func(v *types.Var) bool {
		return flow.Declares(fn.Body, v) && !flow.InRanges(v.Pos(), nested) || namedResult(sig, v)
	}, Copies: fa.chans.Copies}
	fa.externals = flow.Locator{Info: fa.info, Index: flow.NewStableKeys(fa.info, fn.Body).Index, Keep: func(v *types.Var) bool {
		return !flow.Declares(fn.Body, v) && flow.IsParamOrGlobal(fn.Signature(fa.info), v)
	}}
	// Default().Close() unloads defaultMod, k.Module().Close() k.mod.
	fa.locals, fa.externals = withGetters(a.pass, fa.locals), withGetters(a.pass, fa.externals)
	return fa
}

func (fa *funcAnalysis) run() {
	// The entry state: a held handle for every module the function unloads
	// without loading it (a parameter's, a field's, a map's or a local copy
	// of one), so that what follows its unload can be checked, and so that a
	// path that does not unload it joins as "not unloaded".
	if !fa.budget.Start(fa.fn) { // over budget before (flow.Budget)
		return
	}
	fa.entry = state{}
	loadedRoots := fa.loadTargets(fa.fn.Body, true)
	flow.Released(fa.idx, fa.fn.Body, fa.unloadsOf, func(_ *ast.CallExpr, m ast.Expr) {
		l, ok := fa.loc(m)
		if !ok {
			l, ok = fa.elementKey(m) // mods[i] in for i := range mods
		}
		if ok && !loadedRoots[l.Root] {
			fa.entry[l] = &handle{b: held}
		}
	})
	fa.gos = fa.goroutines()
	fa.aliases = fieldAliases(fa.info, fa.fn.Body, fa.holdsModule)
	g := fa.idx.CFG(fa.fn.Body)
	// Solve clones the entry state: fa.entry stays as it is.
	p := flow.Problem[state]{Entry: fa.entry, Transfer: fa.transfer, Branch: fa.refine,
		Budget: fa.budget, Size: func(s state) int { return len(s) }}
	flow.ShareValues(&p, (*handle).clone, (*handle).covers, (*handle).join, (*handle).same)
	in := flow.Solve(g, p)
	if fa.budget.Over() { // no findings: the solution is no fixpoint
		return
	}
	fa.reported = flow.NewFindings(fa.pass)
	flow.Replay(g, in.Last(), p, func(ast.Node, state) {})
}

// localLoc returns the handle e denotes when it is rooted at a variable
// declared in this function (not in a closure inside it), through fields
// only.
func (fa *funcAnalysis) localLoc(e ast.Expr) (flow.Loc, bool) {
	e = flow.StripConversions(fa.info, e) // uintptr and unsafe.Pointer round trips
	if _, deref := ast.Unparen(e).(*ast.StarExpr); deref {
		return flow.Loc{}, false
	}
	return fa.locals.Of(e)
}

// handlesAt returns the tracked handles that an unload or use of e affects:
// the handle itself, or every tracked field path under it, and those of
// the locals the fields under it alias (h.Release() unloads md after h :=
// &Handle{mod: md}).
func (fa *funcAnalysis) handlesAt(s state, e ast.Expr) []flow.Loc {
	l, _ := fa.loc(e) // the zero Loc when e is no handle: it overlaps none
	ks := flow.Overlapping(s, l)
	for _, a := range fa.aliases {
		switch {
		case a.Field.Under(l): // h, h.mod
			ks = flow.AppendNew(ks, flow.Overlapping(s, a.Value)...)
		case l.Under(a.Field): // h.mod.m
			ks = flow.AppendNew(ks, flow.Overlapping(s, flow.Loc{Root: a.Value.Root, Path: a.Value.Path + l.Path[len(a.Field.Path):]})...)
		}
	}
	return ks
}

func (fa *funcAnalysis) transfer(n ast.Node, s state) state {
	if fa.rangeOverOwner(n, s) {
		return s
	}
	fa.checkRecoveredPanic(n, s)
	fa.concurrent(n, s, false) // the joins in n
	switch n := n.(type) {
	case *ast.DeferStmt:
		fa.deferStmt(n, s)
		return s
	case *ast.GoStmt:
		fa.concurrent(n, s, true)
		fa.escapesIn(n, s, nil)
		return s
	case *ast.SendStmt:
		if fa.chans.Sends[n] {
			return s // ch <- md: the receiver is md (localLoc)
		}
	case *ast.AssignStmt:
		if id, ok := n.Lhs[0].(*ast.Ident); ok && len(n.Lhs) == 1 && fa.chans.Copies[fa.info.ObjectOf(id)] != nil {
			return s // got := <-ch: got is what was sent
		}
	}
	// Assignments and var specs (go/cfg lists each spec of a declaration as
	// a node).
	lhs, rhs, _ := flow.Sides(n)
	for i := range rhs {
		if len(lhs) == len(rhs) {
			fa.propagateStatus(s, lhs[i], rhs[i]) // err := check(res)
		}
	}
	as, _ := n.(*ast.AssignStmt)
	_, constructs := fa.constructor(rhs)
	switch {
	case as != nil && len(lhs) == 1 && len(rhs) == 1 && fa.move(as, s):
		return s
	case as == nil || len(lhs) == 1 || !constructs:
		// A plain assignment drops the old module (else: a load, wrapperLoad).
		for _, l := range lhs {
			fa.overwrite(s, l, n)
		}
	}
	fa.escapesIn(n, s, fa.calls(n, s))
	fa.concurrent(n, s, true) // the goroutines n starts (g.Go(f), t.Run)
	fa.exitsProcess(n, s)
	// The modules still loaded leak at a return and where the test ends.
	where := flow.TestStop(fa.info, n)
	if where != "" {
		where = "when " + where + " ends the test"
	}
	if ret, ok := n.(*ast.ReturnStmt); ok {
		fa.setResults(ret, s)
		fa.fnEscapes = mentioned(fa.info, ret, fa.funcs) // the function and global handles it returns
		where = "on this return"
		if ret.Pos() == fa.fn.Body.Rbrace { // go/cfg's implicit return at the closing brace
			where = "at the end of the function"
		}
	}
	if where == "" {
		return s
	}
	for _, k := range sortedByName(s) {
		if h := s[k]; h.b&live != 0 && h.b&given == 0 {
			fa.reportLeak(k, h, n.Pos(), "not unloaded "+where)
		}
	}
	if _, ok := n.(*ast.ReturnStmt); ok && fa.gos != nil {
		fa.deferredWhileRunning(s)
	}
	fa.fnEscapes = nil
	return s
}

// movable returns the handle of e, a local variable (path ""; through
// conversions), when it holds a live module.
func (fa *funcAnalysis) movable(s state, e ast.Expr) (flow.Loc, *handle, bool) {
	l, _ := fa.localLoc(e)
	// nil when e is no local: no handle has the zero Loc.
	h := s[l]
	return l, h, l.Path == "" && h != nil && h.b&live != 0
}

// constructor returns the ReturnsModule fact of the callee when rhs is one
// call.
func (a *analysis_) constructor(rhs []ast.Expr) (ReturnsModule, bool) {
	if len(rhs) == 1 {
		if call, ok := ast.Unparen(rhs[0]).(*ast.CallExpr); ok {
			return a.returns.Of(a.callee(call))
		}
	}
	return ReturnsModule{}, false
}

// overwrite drops what lhs, a local handle, held (the zero Loc when it is
// none: it covers no handle).
func (fa *funcAnalysis) overwrite(s state, lhs ast.Expr, at ast.Node) {
	l, _ := fa.localLoc(lhs)
	// Only existing keys change: local paths name no elements.
	for k, h := range s {
		if !k.Under(l) {
			continue
		}
		// A deferred unload that reads the variable at exit covers the next
		// module, unless this is a new variable (var m, m := ...): a closure
		// deferred before captured the variable of an earlier iteration.
		carried := h.b&byRef != 0 && h.deferAt != token.NoPos && !flow.IsDefinition(fa.info, lhs)
		fa.replaced(k, h, at.Pos(), carried && fa.entry[k] == nil, "overwritten", "what it holds then")
		switch {
		case fa.entry[k] != nil:
			s[k] = fa.entry[k] // a module copied in from elsewhere
		case carried:
			s[k] = &handle{b: byRef, deferAt: h.deferAt}
		default:
			delete(s, k)
		}
	}
}

// calls processes the runtime calls and summarized calls in n, in source
// order, and returns the ranges whose identifiers are borrowed (not escapes).
func (fa *funcAnalysis) calls(n ast.Node, s state) []flow.PosRange {
	var borrowed ranges
	var litDefers []*ast.DeferStmt // of the closure run in place being walked
	var visit func(node ast.Node) bool
	visit = func(node ast.Node) bool {
		switch x := node.(type) {
		case *ast.FuncLit:
			// cgo wrappers are matched at their call. A closure passed to a
			// call (ctx.Do(func() error {...})) runs there, on the caller's
			// variables: see through it. One a local variable holds for
			// good (cleanup := func() {...}) runs where it is called: what
			// it captures does not escape here. Other closures are other
			// functions.
			if fa.idx.Stored(x) {
				borrowed.Add(x)
				return false
			}
			if !fa.idx.InPlace(x) {
				return false
			}
			// The closure's own deferred calls run when it returns, after
			// the rest of its body.
			outer := litDefers
			litDefers = nil
			ast.Inspect(x.Body, visit)
			for _, d := range slices.Backward(litDefers) {
				ast.Inspect(d.Call, visit)
			}
			litDefers = outer
			return false
		case *ast.DeferStmt: // in a closure run in place (the function's own are transfer's)
			litDefers = append(litDefers, x)
			return false
		case *ast.BinaryExpr:
			if _, _, ok := flow.NilComparison(fa.info, x); ok {
				borrowed.Add(x)
			}
		case *ast.CallExpr:
			if c := fa.idx.Match(x); c != nil {
				for _, arg := range c.Args {
					ast.Inspect(arg, visit) // calls nested in the user's arguments run first
				}
				fa.runtimeCall(c, s)
				borrowed.Add(c.Args...)
				return false
			}
			if lit := fa.idx.StoredLit(x); lit != nil {
				ast.Inspect(lit.Body, visit) // cleanup(): the closure runs here
				return true
			}
			fn := fa.callee(x)
			// A call through a parameter of function type (fn(m) in `func
			// With(img, fn func(C.hipModule_t) error)`) borrows the modules
			// the function unloads somewhere itself. One it never unloads
			// may be the callback's to keep (an onLoad hook that registers it).
			callsParam := flow.CallsParam(fa.info, fa.fn.Signature(fa.info), x)
			for _, arg := range x.Args {
				if callsParam && fa.unloadsAnywhere(flow.RootVar(fa.info, arg)) {
					borrowed.Add(arg)
				}
			}
			// t.Cleanup(func() { C.hipModuleUnload(m) }), t.Cleanup(m.Close): it runs
			// when the test ends, like a deferred closure of the test.
			if flow.IsTestCleanup(fn) {
				flow.CleanupReleases(fa.idx, fa.info, x, fa.unloadsOf, fa.unloadsRecv, func(c *ast.CallExpr, m ast.Expr) {
					flow.Put(&fa.cleanups, c.Pos(), true)
					fa.unloadBy(s, flow.ThroughRange(fa.info, fa.fn.Body, m), c, atExit)
				})
			}
			fa.lentUnloads(x, fn)
			borrowed.Add(fa.idx.ArgsAt(x, fa.borrows.Get(fn).Params)...)
			if fn == nil { // o(e) for an option o
				borrowed.Add(fa.funcValueBorrows(x)...)
			}
			for _, m := range fa.idx.ArgsAt(x, fa.borrows.Get(fn).Uses) { // none when fn is nil
				fa.afterUnload(s, x, fn.Name(), m)
			}
			// A helper that launches the handles it is passed: a launch.
			for _, arg := range fa.launchedArgs(x) {
				for _, h := range launchedHandles(arg) {
					fa.checkLaunch(s, x, fn.Name(), h)
				}
			}
			if r, ok := fa.returns.Of(fn); ok {
				fa.wrapperLoad(x, r, s)
			}
			fa.unloadedResults(x, fn) // the function handles it returns
			// The caller's variables a loader into them fills now hold a
			// module.
			li, _ := fa.loadsInto.Of(fn)
			for _, p := range li.Params {
				adds := slices.Contains(li.Adds, p) // only into owners the function created
				if l, ok := fa.target(s, fa.idx.ArgAt(x, p), adds); ok && adds {
					fa.addInto(s, x, l, li.Status)
				} else if ok {
					fa.loadAt(s, l, x, false, li.Status)
				}
				borrowed.Add(fa.idx.ArgAt(x, p))
			}
			for _, m := range fa.unloadsOf(x) { // not a runtime call: the callee's Unloads
				fa.unloadBy(s, m, x, 0)
				borrowed.Add(m)
			}
		}
		return true
	}
	ast.Inspect(n, visit)
	return borrowed
}

func (fa *funcAnalysis) runtimeCall(c *cgocall.Call, s state) {
	switch c.Func.Role {
	case hipapi.ModuleLoad:
		fa.reloadOverInit(c)
		if l, ok := fa.target(s, flow.Addressed(c.Arg(c.Func.Out)), false); ok {
			fa.loadAt(s, l, c.Expr, l.Path == "", ownResult)
		}
	case hipapi.ModuleUnload:
		fa.unloadBy(s, c.Arg(c.Func.Module), c.Expr, 0)
	case hipapi.ModuleGetFunction, hipapi.ModuleGetGlobal:
		fa.afterInitUnload(c)
		ks := fa.afterUnload(s, c, c.Func.Name, c.Arg(c.Func.Module))
		// The function or global handle it fills comes from the module.
		id, _ := ast.Unparen(flow.Addressed(c.Arg(c.Func.Out))).(*ast.Ident)
		if obj := fa.info.ObjectOf(id); obj != nil && len(ks) > 0 {
			flow.Put(&fa.funcs, obj, ks[0])
		}
	case hipapi.Launch:
		fa.afterInitUnload(c)
		fa.checkLaunch(s, c.Expr, c.Func.Name, c.Arg(c.Func.Function))
	}
}

// checkLaunch reports a launch, by name at call, of the function handle
// fnArg whose module is unloaded: a runtime launch, or a call of a helper
// that launches what it is passed (Launches).
func (fa *funcAnalysis) checkLaunch(s state, call *ast.CallExpr, name string, fnArg ast.Expr) {
	fa.launchOfUnloaded(call, name, fnArg)
	if sel, m, ok := fa.funcField(fnArg); ok {
		// k.fn, taken from k.mod (funcFields): k.mod's handles.
		if l, ok := fa.loc(sel.X); ok {
			for _, k := range flow.Overlapping(s, l.Field(m.Name())) {
				if h := s[k]; h.b&^flags == unloaded {
					fa.reported.Reportf(UseAfterUnload, call, []diag.Related{{Pos: h.unloadAt, Message: "module unloaded here"}},
						"%s launches %s, whose module %s was unloaded; launch before unloading the module", name, types.ExprString(sel), k)
				}
			}
		}
		return
	}
	// Through conversions: C.hipFunction_t(unsafe.Pointer(f)) for a
	// handle of another package's C type.
	id, _ := ast.Unparen(flow.StripConversions(fa.info, fnArg)).(*ast.Ident)
	if id == nil {
		return
	}
	k := fa.funcs[fa.info.ObjectOf(id)] // the zero Loc, no handle, when unknown
	if h, ok := s[k]; ok && h.b&^flags == unloaded {
		fa.reported.Reportf(UseAfterUnload, call, []diag.Related{{Pos: h.unloadAt, Message: "module unloaded here"}},
			"%s launches %s, whose module %s was unloaded; launch before unloading the module", name, id.Name, k)
	} else if v, _ := k.Root.(*types.Var); v != nil {
		if h := fa.listedUnloaded(s, v, call.Pos()); h != nil {
			fa.reported.Reportf(UseAfterUnload, call, []diag.Related{{Pos: h.unloadAt, Message: "module unloaded here, by a loop over every element"}},
				"%s launches %s, whose module %s was unloaded; launch before unloading the module", name, id.Name, k)
		}
	}
}

// afterUnload reports the use by name, at n, of the modules m denotes that
// are unloaded, and returns its handles.
func (fa *funcAnalysis) afterUnload(s state, n analysis.Range, name string, m ast.Expr) []flow.Loc {
	ks := fa.handlesAt(s, m)
	for _, k := range ks {
		if h := s[k]; h.b&^flags == unloaded {
			fa.reported.Reportf(UseAfterUnload, n, []diag.Related{{Pos: h.unloadAt, Message: "unloaded here"}},
				"%s uses module %s after it was unloaded; get functions and globals before the unload", name, k)
		} else {
			fa.useWhileUnloading(k, h, n, name)
		}
	}
	if h := fa.everyUnloaded(s, m); h != nil {
		fa.reported.Reportf(UseAfterUnload, n, []diag.Related{{Pos: h.unloadAt, Message: "unloaded here, by a loop over every element"}},
			"%s uses module %s after it was unloaded; get functions and globals before the unload", name, types.ExprString(m))
	}
	return ks
}

// wrapperLoad handles `m, err := loadModule(path)` for a function with a
// ReturnsModule fact.
func (fa *funcAnalysis) wrapperLoad(call *ast.CallExpr, r ReturnsModule, s state) {
	// The module is dropped on the spot, or handed to a method that only
	// borrows it (Borrows leaves out what a function unloads).
	drops := func(fn *types.Func) bool { return slices.Contains(fa.borrows.Get(fn).Params, flow.Receiver) }
	if droppedResult(fa.info, fa.fn.Body, call, r.Result, drops) {
		fa.reported.Reportf(Leak, call, nil,
			"the module %s returns is discarded and can never be unloaded; keep it and unload it when done", fa.callee(call).Name())
		return
	}
	as, ok := flow.Parent(fa.fn.Body, call).(*ast.AssignStmt)
	if !ok || len(as.Rhs) != 1 || r.Result >= len(as.Lhs) {
		return
	}
	if l, ok := fa.localLoc(as.Lhs[r.Result]); ok {
		// A new variable: an earlier iteration's deferred closure keeps its own.
		if old := s[l]; old != nil && old.b&(byRef|live) == byRef && flow.IsDefinition(fa.info, as.Lhs[r.Result]) {
			delete(s, l)
		}
		fa.loadAt(s, l, call, true, r.Status)
	}
}

// loadAt records a load into l. reassign: the load gives the variable a new
// value (m, err = Open(); C.hipModuleLoad(&m, ...)) rather than loading into
// what it points to (p.Load(); C.hipModuleLoad(&p.h, ...)). status is the
// result of call that says whether the load succeeded (callStatus).
func (fa *funcAnalysis) loadAt(s state, l flow.Loc, call *ast.CallExpr, reassign bool, status int) {
	old := previous(s, l) // a covering defer has no loads to report
	// A deferred unload that reads the variable at exit unloads this module
	// instead of the one the variable held before; one bound to a pointer
	// unloads what is loaded into the struct it points to.
	ref := byRef | pointee
	if reassign {
		ref = byRef
	}
	inherit := old.b&ref != 0 && old.deferAt != token.NoPos && !fa.candidates
	fa.replaced(l, old, call.Pos(), inherit, "loaded again", "the last module loaded into it")
	h := &handle{sites: []int{fa.siteIndex(call, l)}}
	h.b, h.status = fa.callStatus(call, status)
	if inherit {
		h.b, h.deferAt = deferred|old.b&(byRef|pointee), old.deferAt
	}
	// A field of a parameter or the receiver (target); a named result is
	// the function's own variable, not one it was given.
	if !flow.Declares(fa.fn.Body, l.Root) && !namedResult(fa.fn.Signature(fa.info), l.Root) {
		h.b |= given
	}
	s[l] = h
}

// replaced reports the modules of h, k's handle, that a new value of k (at)
// leaves behind: one still loaded, and, when the deferred unload that reads
// k at exit now covers the new value (carried), one nothing unloads now.
// Not after the module escaped: `m = nil` then disarms the deferred cleanup
// of a module handed over.
func (fa *funcAnalysis) replaced(k flow.Loc, h *handle, at token.Pos, carried bool, by, only string) {
	if h.b&live != 0 && h.b&escaped == 0 {
		fa.reportLeak(k, h, at, "still loaded when its handle is "+by)
	}
	if carried && len(h.sites) > 0 && h.b&^flags == deferred {
		fa.reportLeak(k, h, at, "never unloaded: the deferred unload reads the variable at exit and unloads only "+only)
	}
}

// siteIndex returns the index of the load site of call, recording it first.
func (fa *funcAnalysis) siteIndex(call *ast.CallExpr, l flow.Loc) int {
	return fa.sites.Add(call, 0, func() *loadSite {
		site := &loadSite{call: call, at: l}
		if c := fa.idx.Match(call); c != nil {
			site.name, site.unload = c.Func.Name, hipapi.Unloader(c.Func)
		} else {
			// A constructor or a loader into its arguments: a static callee.
			site.name = fa.callee(call).Name()
		}
		return site
	})
}

// refine applies what a branch on cond says about load statuses: side ==
// nil, side != 0 (hipSuccess and CUDA_SUCCESS are 0), through !, && and ||.
// The unchecked loads whose status key holds are settled: loaded on
// success, failed otherwise.
func (fa *funcAnalysis) refine(cond ast.Expr, taken bool, s state) state {
	flow.StatusBranch(fa.info, cond, taken, fa.statusSources, func(key any, success bool) {
		outcome := failed
		if success {
			outcome = loaded
		}
		for k, h := range s {
			if key != nil && h.b&pending != 0 && slices.Contains(h.status, key) {
				own(s, k).b = h.b&^pending | outcome
			}
		}
	})
	return s
}

// unloadBy records an unload of m by call; how is deferred for a deferred
// one, with byRef or pointee for how it reads the module at exit; quiet: the
// unload reports nothing, as does one by an unloader guarded by a flag it
// clears (Unloads.Idempotent), which never unloads twice nor a module that
// failed to load.
func (fa *funcAnalysis) unloadBy(s state, m ast.Expr, call *ast.CallExpr, how bits) {
	if fa.candidates {
		return // every load stays live: each balanced load becomes a candidate
	}
	if slices.Contains(fa.idx.ArgsAt(call, fa.unloads.Get(fa.callee(call)).Idempotent), m) {
		how |= quiet
	}
	isDeferred, ref := how&deferred != 0, how&(byRef|pointee)
	ks := fa.handlesAt(s, m)
	if l, ok := fa.elementKey(m); ok && len(ks) == 0 {
		ks = flow.Overlapping(s, l) // mods[i] in for i := range mods
	}
	// A variable that holds no module yet (var k Kernel; defer k.Close();
	// k.Init(...)): the module loaded into it later is unloaded at exit.
	if l, ok := fa.localLoc(m); ok && ref != 0 && len(ks) == 0 {
		s[l] = &handle{b: ref, deferAt: call.Pos()}
	}
	for _, k := range ks {
		h := s[k]
		switch {
		case how&quiet != 0 || h.b&owner != 0:
			// A guarded unloader unloads nothing twice. An owner's cleanup
			// unloads what it holds now: nothing when the adds failed, and
			// it usually clears the owner.
		case h.b&pending != 0:
			msg := "module %s is unloaded before its load was checked for success; check the load's status first and unload only a module that loaded"
			if isDeferred {
				msg = "unload of module %s is deferred before the load is checked for success; if the load fails the deferred unload gets an invalid handle: move the defer after the error check"
			}
			fa.reported.Reportf(UnloadUnchecked, call, fa.siteRelated(h, "loaded here"), msg, k)
		case h.b&^flags == failed:
			fa.reported.Reportf(UnloadUnchecked, call, fa.siteRelated(h, "load that failed"),
				"module %s is unloaded although its load failed; a failed load leaves no module to unload", k)
		case h.b&deferred != 0 && !isDeferred:
			fa.reported.Reportf(DoubleUnload, call, []diag.Related{{Pos: h.deferAt, Message: "deferred unload"}},
				"module %s is unloaded here and again by a deferred unload; remove one of them", k)
		case h.b&^flags == unloaded || h.b&unloaded != 0 && flow.FallsThrough(fa.fn.Body, h.unloadAt, call.Pos()):
			// Unloaded on some paths only: twice where a case unloads
			// and falls through into one that unloads again.
			fa.reported.Reportf(DoubleUnload, call, []diag.Related{{Pos: h.unloadAt, Message: "first unloaded here"}},
				"module %s is unloaded twice; the second unload fails with hipErrorNotFound or corrupts the runtime's module list", k)
		case !isDeferred:
			fa.unloadWhileRunning(k, h, call)
		}
		h = own(s, k)
		if isDeferred {
			if h.b&(live|escaped) != 0 {
				h.b = h.b&^(live) | deferred
			}
			h.deferAt = cmp.Or(h.deferAt, call.Pos())
			h.b |= ref
		} else {
			h.b = h.b&flags | unloaded
			h.unloadAt, h.unloaded = call.Pos(), flow.StripConversions(fa.info, m)
		}
	}
	// A second loop over the modules a first loop unloaded, each of them
	// (the first loop's variable is another variable).
	if how&(deferred|quiet) == 0 {
		if h := fa.everyUnloaded(s, m); h != nil {
			fa.reported.Reportf(DoubleUnload, call, []diag.Related{{Pos: h.unloadAt, Message: "first unloaded here, by a loop over every element"}},
				"module %s is unloaded twice; the second unload fails with hipErrorNotFound or corrupts the runtime's module list", types.ExprString(m))
		}
	}
}

// everyUnloaded returns the handle of s whose unload, in a range loop
// that unloads every element, unloaded the module m names too: m is an
// element of the same slice or map after that loop (flow.SameElements),
// or a local variable that the composite literal the loop ranges over
// lists (mods := []*Module{a, b}; for _, md := range mods { md.Close() };
// a.Function(name): flow.ListedElement).
// It only reports, so it looks only while findings are reported.
func (fa *funcAnalysis) everyUnloaded(s state, m ast.Expr) *handle {
	if fa.reported == nil {
		return nil
	}
	var first *handle
	for _, h := range s {
		if h.b&unloaded == 0 || h.unloaded == nil || first != nil && h.unloadAt >= first.unloadAt {
			continue
		}
		if e := flow.StripConversions(fa.info, m); flow.SameElements(fa.info, fa.fn.Body, h.unloaded, e) ||
			flow.ListedElement(fa.info, fa.fn.Body, h.unloaded, e) {
			first = h
		}
	}
	return first
}

// listedUnloaded returns the handle of s whose unload, in a range loop
// that unloads every element of a set that lists v, unloaded the module
// v holds, for a use at pos (flow.ListedVar).
func (fa *funcAnalysis) listedUnloaded(s state, v *types.Var, pos token.Pos) *handle {
	if fa.reported == nil {
		return nil
	}
	var first *handle
	for _, h := range s {
		if h.b&unloaded != 0 && h.unloaded != nil && (first == nil || h.unloadAt < first.unloadAt) &&
			flow.ListedVar(fa.info, fa.fn.Body, h.unloaded, v, pos) {
			first = h
		}
	}
	return first
}

func (fa *funcAnalysis) siteRelated(h *handle, msg string) []diag.Related {
	return diag.RelatedEach(h.sites, func(i int) diag.Related { return diag.Related{Pos: fa.sites.List[i].call.Pos(), Message: msg} })
}

// deferStmt handles `defer C.hipModuleUnload(m)`, `defer m.Unload()` and
// deferred closures that unload.
func (fa *funcAnalysis) deferStmt(d *ast.DeferStmt, s state) {
	if ms := fa.unloadsOf(d.Call); len(ms) > 0 {
		// A pointer method binds &m (it sees what m holds at exit) on a
		// value, the pointer on a pointer (what is loaded into *m).
		how := deferred
		if ptrRecv, onPtr := flow.ReceiverKinds(fa.info, d.Call); ptrRecv && fa.idx.Match(d.Call) == nil {
			how |= byRef
			if onPtr {
				how = deferred | pointee
			}
		}
		for _, m := range ms {
			fa.unloadBy(s, m, d.Call, how)
		}
		return
	}
	// defer func() { C.hipModuleUnload(m) }() unloads in the deferred closure,
	// defer ctx.Do(func() error { return check(C.hipModuleUnload(m)) }) in
	// the closure passed to it.
	lits, released := d.Call.Args, false
	if lit, ok := ast.Unparen(d.Call.Fun).(*ast.FuncLit); ok && !cgocall.IsWrapper(fa.info, lit) {
		lits, released = []ast.Expr{lit}, true
	}
	for _, arg := range lits {
		if lit, ok := ast.Unparen(arg).(*ast.FuncLit); ok && !cgocall.IsWrapper(fa.info, lit) {
			flow.Released(fa.idx, lit.Body, fa.unloadsOf, func(call *ast.CallExpr, m ast.Expr) {
				fa.unloadBy(s, flow.ThroughRange(fa.info, fa.fn.Body, m), call, atExit)
				released = true
			})
		}
	}
	if !released {
		fa.escapesIn(d, s, nil)
	}
}

// escapesIn marks handles used in n outside the borrowed ranges as escaped:
// returned, stored, captured or passed to code that may take ownership.
func (fa *funcAnalysis) escapesIn(n ast.Node, s state, borrowed []flow.PosRange) {
	if len(s) == 0 {
		return // nothing to mark
	}
	safe := ranges(slices.Clip(borrowed)) // and what assignments overwrite or drop
	if as, ok := n.(*ast.AssignStmt); ok {
		safe = append(safe, flow.BlankAssigned(as)...)
		for _, l := range as.Lhs {
			if _, ok := fa.localLoc(l); ok {
				safe.Add(l)
			}
		}
	}
	// fa.roots is reused from call to call: UsedOutside does not keep it.
	roots := fillRoots(&fa.roots, s)
	for _, a := range fa.aliases {
		roots[a.Field.Root] = true // h hands on md where it escapes
		safe.Add(a.Stores...)      // storing md into h keeps it here
	}
	for got, w := range fa.chans.Copies { // got := <-ch hands on what w holds
		if roots[w] {
			roots[got] = true
		}
	}
	for obj := range fa.used.Of(fa.info, n, roots, safe) {
		obj = cmp.Or(fa.chans.Copies[obj], obj)
		for _, a := range fa.aliases {
			if a.Field.Root != obj {
				continue
			}
			for _, k := range flow.Overlapping(s, a.Value) {
				if h := s[k]; h.b&live != 0 || h.b&(byRef|deferred) == byRef|deferred {
					own(s, k).b = h.b&^live | escaped
				}
			}
		}
		for k, h := range s {
			// A deferred unload that reads the variable is handed on too:
			// clearing the variable then disarms the deferred cleanup.
			if k.Root == obj && (h.b&live != 0 || h.b&(byRef|deferred) == byRef|deferred) {
				// h, the old one, is a seed's only when held: no live bits.
				own(s, k).b = h.b&^live | escaped
			}
			if k.Root == obj && fa.entry[k] != nil && h.b&^flags != held {
				s[k] = fa.entry[k] // passed on or assigned: it may hold a new module
			}
		}
	}
}

func (fa *funcAnalysis) reportLeak(k flow.Loc, h *handle, at token.Pos, why string) {
	if fa.reported == nil {
		return // solving: the states only
	}
	for _, i := range h.sites {
		site := fa.sites.List[i]
		msg := fmt.Sprintf("module %s loaded by %s is %s", k, site.name, why)
		related := []diag.Related{{Pos: at, Message: "leaks here"}}
		switch {
		case site.call.Pos() == at:
			related = nil // it leaks at the load itself
			msg = fmt.Sprintf("module %s loaded by %s on every iteration is never unloaded before the next load; unload it in the loop or load it once outside", k, site.name)
		case h.b&owner != 0: // the owner's modules need a cleanup that unloads them all
			msg = fmt.Sprintf("modules kept in %s (loaded by %s) are %s; %s dies with the function and nothing unloads them", k, site.name, why, k)
		case h.b&given != 0:
			msg += "; unload it before loading another module into " + k.String()
		case fa.resultSet:
			msg += "; keep the module in a local variable for the deferred cleanup to read, or return it on this path too"
		case fa.fnEscapes[k]:
			msg += "; only a function handle from it escapes, and the function dies with its module: keep the module with it (return or store it) and unload it when done"
		case site.unload != "" && fa.unloadsAnywhere(k.Root):
			// A defer added beside the function's own unloads would unload
			// twice (HL2002) on the paths that already unload.
			msg += fmt.Sprintf("; unload it on this path too, or replace the function's unloads with one defer C.%s(%s) right after the load's error check", site.unload, k)
		case site.unload != "":
			msg += fmt.Sprintf("; unload it on every path, e.g. defer C.%s(%s) right after the load's error check", site.unload, k)
		default:
			msg += "; unload it on every path"
		}
		// The fix: `defer C.hipModuleUnload(m)` on the line after the
		// load's error check, when the load's handle is a plain local, the
		// check is an if statement that returns, and the function unloads
		// the module nowhere.
		var fixes []analysis.SuggestedFix
		if site.unload != "" && site.at.Path == "" && h.b&owner == 0 && !fa.unloadsAnywhere(site.at.Root) {
			fixes = flow.FixAfterCheck(fa.pass.Fset, fa.fn.Body, site.call,
				fmt.Sprintf("Unload %s with defer C.%s after the error check", site.at, site.unload),
				fmt.Sprintf("defer C.%s(%s)", site.unload, site.at))
		}
		fa.reported.Report(Leak, site.call.Pos(), site.call.End(), msg, related, fixes...)
	}
}

func (fa *funcAnalysis) unloadsAnywhere(root types.Object) bool {
	if fa.unloadRoots == nil { // once: a huge function can leak many modules
		fa.unloadRoots = flow.ReleasedRoots(fa.idx, fa.info, fa.fn.Body, fa.unloadsOf)
	}
	return fa.unloadRoots[root]
}

// previous returns what a load into l finds there: l's handle, or else the
// deferred unload of a whole variable (a handle without loads of its own)
// that covers l, a field of it; else an empty handle (not to be changed).
func previous(s state, l flow.Loc) *handle {
	if h, ok := s[l]; ok {
		return h
	}
	for k, h := range s {
		if l.Under(k) && len(h.sites) == 0 && h.deferAt != token.NoPos { // k != l: l has no handle
			return h
		}
	}
	return &noHandle
}

var noHandle handle
