package xnack

import (
	"go/ast"
	"go/types"
	"slices"

	"github.com/hiplint/hiplint/internal/flow"
)

// This file is what xnack knows of functions: its summaries, each kept in a
// flow.Table or flow.Marks (this package's, else the imported fact, else
// the meet over an interface method's implementations), and computed by two
// flow.Summaries solves. The first summarizes results (guard wrappers,
// system-memory constructors, kernel argument arrays); the events of every
// node need them. The second summarizes effects and uses: whether a
// function initializes HIP, sets HSA_XNACK, returns only with XNACK on, and
// which unguarded memory uses and parameters reaching the GPU it has.

type summaries struct {
	xnack   *flow.Table[ReportsXNACK, *ReportsXNACK]
	hmm     *flow.Table[ReportsHMM, *ReportsHMM]
	errs    *flow.Table[ErrUnlessXNACK, *ErrUnlessXNACK]
	memory  *flow.Table[ReturnsSystemMemory, *ReturnsSystemMemory]
	args    *flow.Table[ReturnsKernelArgs, *ReturnsKernelArgs]
	needs   *flow.Table[NeedsXNACK, *NeedsXNACK]
	params  *flow.Table[LaunchesParams, *LaunchesParams]
	runtime *flow.Marks[InitializesHIP, *InitializesHIP]
	env     *flow.Marks[SetsHSAXNACK, *SetsHSAXNACK]
	guards  *flow.Marks[GuardsXNACK, *GuardsXNACK]
}

func newSummaries(a *analyzer) *summaries {
	pass, impls := a.pass, a.impls
	s := &summaries{
		xnack:   flow.NewTable[ReportsXNACK](pass, impls),
		hmm:     flow.NewTable[ReportsHMM](pass, impls),
		errs:    flow.NewTable[ErrUnlessXNACK](pass, impls),
		memory:  flow.NewTable[ReturnsSystemMemory](pass, impls),
		args:    flow.NewTable[ReturnsKernelArgs](pass, impls),
		needs:   flow.NewTable[NeedsXNACK](pass, impls),
		params:  flow.NewTable[LaunchesParams](pass, impls),
		runtime: flow.NewMarks[InitializesHIP](pass, impls),
		env:     flow.NewMarks[SetsHSAXNACK](pass, impls),
		guards:  flow.NewMarks[GuardsXNACK](pass, impls),
	}
	// A result index of -1 is no summary (result 0 is one).
	s.xnack.Empty = func(f ReportsXNACK) bool { return f.Result < 0 }
	s.hmm.Empty = func(f ReportsHMM) bool { return f.Result < 0 }
	s.errs.Empty = func(f ErrUnlessXNACK) bool { return f.Result < 0 }
	s.memory.Empty = func(f ReturnsSystemMemory) bool { return f.From == "" }
	// Through an interface, a call may reach any implementation (the HIP
	// one on an AMD GPU): it returns system memory if every implementation
	// does, hands a parameter to the GPU if any does, and may initialize
	// HIP or set HSA_XNACK if any does; it guards only if every
	// implementation does. Guard results are met in reportsOf and
	// errReportsOf (they span two tables), uses in usesOf (they keep this
	// package's positions).
	s.memory.Meet = func(fs []ReturnsSystemMemory) ReturnsSystemMemory {
		for _, f := range fs {
			if f.From == "" || f.Result != fs[0].Result {
				return ReturnsSystemMemory{}
			}
		}
		return fs[0]
	}
	s.params.Meet = func(fs []LaunchesParams) LaunchesParams {
		var out LaunchesParams
		for _, f := range fs {
			out.Params = mergeParams(out.Params, f.Params)
		}
		return out
	}
	s.guards.Every = true
	return s
}

// export exports the summaries of the functions other packages can call.
func (s *summaries) export(funcs []*types.Func) {
	s.xnack.Export(funcs)
	s.hmm.Export(funcs)
	s.memory.Export(funcs)
	s.args.Export(funcs)
	s.needs.Export(funcs)
	s.runtime.Export(funcs)
	s.guards.Export(funcs)
	s.env.Export(funcs)
	s.params.Export(funcs)
	s.errs.Export(funcs)
}

// reportSummary is what a guard helper's result proves.
type reportSummary struct {
	result int
	kind   guardKind
	checks string
}

// meetReports is what a guard result proves through an interface: a guard
// only if every implementation's result is one, and as weak as the weakest.
func meetReports(impls []*types.Func, of func(*types.Func) (reportSummary, bool)) (reportSummary, bool) {
	var out reportSummary
	for i, impl := range impls {
		r, ok := of(impl)
		if !ok || i > 0 && r.result != out.result {
			return reportSummary{}, false
		}
		if i == 0 || r.kind < out.kind {
			out = r
		}
	}
	return out, true
}

// reportsOf returns what fn's boolean result proves (ReportsXNACK,
// ReportsHMM).
func (a *analyzer) reportsOf(fn *types.Func) (reportSummary, bool) {
	if impls := a.impls.Of(fn); impls != nil {
		return meetReports(impls, a.reportsOf)
	}
	if h, ok := a.sums.hmm.Of(fn); ok {
		return reportSummary{result: h.Result, kind: hmmCheck, checks: h.Checks}, true
	}
	if x, ok := a.sums.xnack.Of(fn); ok {
		return reportSummary{result: x.Result, kind: xnackCheck}, true
	}
	return reportSummary{}, false
}

// errReportsOf returns what fn's error result being nil proves
// (ErrUnlessXNACK).
func (a *analyzer) errReportsOf(fn *types.Func) (reportSummary, bool) {
	if impls := a.impls.Of(fn); impls != nil {
		return meetReports(impls, a.errReportsOf)
	}
	f, ok := a.sums.errs.Of(fn)
	if !ok {
		return reportSummary{}, false
	}
	if f.Checks != "" {
		return reportSummary{result: f.Result, kind: hmmCheck, checks: f.Checks}, true
	}
	return reportSummary{result: f.Result, kind: xnackCheck}, true
}

// setReports records fn's guard result summaries.
func (a *analyzer) setReports(fn *types.Func, r reportSummary, ok bool) bool {
	x, h := ReportsXNACK{Result: -1}, ReportsHMM{Result: -1}
	switch {
	case ok && r.kind == xnackCheck:
		x.Result = r.result
	case ok:
		h = ReportsHMM{Result: r.result, Checks: r.checks}
	}
	cx := a.sums.xnack.Set(fn, x)
	return a.sums.hmm.Set(fn, h) || cx
}

func (a *analyzer) setErrReports(fn *types.Func, r reportSummary, ok bool) bool {
	f := ErrUnlessXNACK{Result: -1}
	if ok {
		f.Result = r.result
		if r.kind == hmmCheck {
			f.Checks = r.checks
		}
	}
	return a.sums.errs.Set(fn, f)
}

// results is the first solve's summary of one function.
type results struct {
	reports    reportSummary
	hasReports bool
	memory     ReturnsSystemMemory
	args       ReturnsKernelArgs
}

// summarizeResults finds guard wrappers, system-memory constructors and
// kernel argument array builders, callees first.
func (a *analyzer) summarizeResults() {
	flow.Summaries[results]{
		Pass: a.pass, Index: a.idx, Impls: a.impls,
		Deps: func(fn flow.Func) []*types.Func {
			return flow.StoreDeps(a.pass.TypesInfo, a.pass.Pkg, a.ix.Sources, fn.Body)
		},
		Analyze: func(fn flow.Func) results {
			fi := a.byObj[fn.Object(a.pass.TypesInfo)]
			var r results
			r.reports, r.hasReports = a.findReports(fi)
			r.memory, _ = a.findReturnedMemory(fi)
			r.args, _ = a.findKernelArgs(fi)
			return r
		},
		Update: func(obj *types.Func, r results) bool {
			c1 := a.setReports(obj, r.reports, r.hasReports)
			c2 := a.sums.memory.Set(obj, r.memory)
			return a.sums.args.Set(obj, r.args) || c1 || c2
		},
	}.Solve(a.idx.Funcs())
}

// calleeSummary is what a call site needs to know about its callee.
type calleeSummary struct {
	callsRuntime, setsEnv, guards bool
	uses                          []useRef
	// params are the callee's parameters that reach the GPU; for a literal
	// (own), those of the declaration it is written in, which it captures.
	params []ParamFlow
	own    bool
}

func (a *analyzer) summaryOf(ev event) calleeSummary {
	if ev.lit != nil {
		fi := a.byLit[ev.lit]
		if fi == nil {
			return calleeSummary{}
		}
		// A literal that skips (a subtest) does not guard its caller.
		s := fi.sum
		s.guards, s.own = false, true
		return s
	}
	fn := ev.callee
	if fn == nil {
		return calleeSummary{}
	}
	s := calleeSummary{callsRuntime: a.sums.runtime.Has(fn), setsEnv: a.sums.env.Has(fn), guards: a.sums.guards.Has(fn),
		uses: a.usesOf(fn)}
	if p, ok := a.sums.params.Of(fn); ok {
		s.params = p.Params
	}
	return s
}

// summarizeUses computes, callees first, every function's effects (whether
// it may initialize HIP or set HSA_XNACK, flow-insensitively), whether it
// returns only with XNACK on, which unguarded memory uses it reaches, and
// which of its parameters reach the GPU. A declaration's literals are
// analyzed with it, innermost first: they run where they are written (or
// are goroutines and deferred calls of it).
func (a *analyzer) summarizeUses(walk bool) {
	lits, orphans := flow.LitsByDecl(a.idx.Funcs())
	analyzeLits := func(fis []*ast.FuncLit) {
		for _, lit := range slices.Backward(fis) {
			a.summarize(a.byLit[lit], walk)
		}
	}
	flow.Summaries[calleeSummary]{
		Pass: a.pass, Index: a.idx, Impls: a.impls,
		Analyze: func(fn flow.Func) calleeSummary {
			analyzeLits(lits[fn.Decl])
			fi := a.byObj[fn.Object(a.pass.TypesInfo)]
			a.summarize(fi, walk)
			return fi.sum
		},
		Update: func(obj *types.Func, s calleeSummary) bool {
			c1 := a.sums.runtime.Set(obj, s.callsRuntime)
			c2 := a.sums.env.Set(obj, s.setsEnv)
			c3 := a.sums.guards.Set(obj, s.guards)
			a.localUses[obj] = s.uses
			c4 := a.sums.needs.Set(obj, needsOf(s.uses))
			c5 := a.sums.params.Set(obj, LaunchesParams{Params: s.params})
			c6 := a.setErrReports(obj, a.byObj[obj].err, a.byObj[obj].hasErr)
			return c1 || c2 || c3 || c4 || c5 || c6
		},
	}.Solve(a.idx.Funcs())
	analyzeLits(orphans)
}

// summarize analyzes fi once with the summaries known so far.
func (a *analyzer) summarize(fi *fnInfo, walk bool) {
	var s calleeSummary
	for _, evs := range fi.events {
		for _, ev := range evs {
			switch ev.kind {
			case evRuntime:
				s.callsRuntime = true
			case evSetenv:
				s.setsEnv = true
			case evCall:
				c := a.summaryOf(ev)
				s.callsRuntime = s.callsRuntime || c.callsRuntime
				s.setsEnv = s.setsEnv || c.setsEnv
			}
		}
	}
	fi.sum = s // the effects hold during the walk (recursion)
	if !walk {
		return
	}
	r := a.walk(fi, state{}, false)
	s.guards = fi.obj != nil && r.sawExit && r.exit.guarded
	s.uses = firstUses(r.unguarded)
	s.params = firstParams(r.params)
	fi.sum = s
	if fi.obj != nil {
		fi.err, fi.hasErr = a.findErrGuard(fi, r)
	}
}

// firstUses keeps the first use of each kind, system memory first.
func firstUses(sites []siteUse) []useRef {
	var out []useRef
	for _, k := range []memKind{systemMem, managedMem} {
		for _, s := range sites {
			if s.use.kind == k {
				out = append(out, s.use)
				break
			}
		}
	}
	return out
}

// needsOf is the NeedsXNACK summary of a function's first uses.
func needsOf(uses []useRef) NeedsXNACK {
	var n NeedsXNACK
	for _, u := range uses {
		if u.kind == systemMem {
			n.System, n.SystemWhat, n.SystemCUDA = true, u.describe(""), u.cuda
		} else {
			n.Managed, n.ManagedWhat = true, u.describe("")
		}
	}
	return n
}

// usesOf returns the unguarded uses a call of fn reaches, first of each
// kind, system memory first: this package's where they are, another's at
// its declaration (NeedsXNACK), through an interface those of any
// implementation.
func (a *analyzer) usesOf(fn *types.Func) []useRef {
	if impls := a.impls.Of(fn); impls != nil {
		var all []useRef
		for _, impl := range impls {
			all = append(all, a.usesOf(impl)...) // impls holds no interface method: one level
		}
		var out []useRef
		for _, k := range []memKind{systemMem, managedMem} {
			if i := slices.IndexFunc(all, func(u useRef) bool { return u.kind == k }); i >= 0 {
				out = append(out, all[i])
			}
		}
		return out
	}
	if fn.Pkg() == a.pass.Pkg {
		return a.localUses[fn.Origin()]
	}
	n, ok := a.sums.needs.Of(fn)
	if !ok {
		return nil
	}
	var out []useRef
	if n.System {
		out = append(out, useRef{kind: systemMem, what: n.SystemWhat, pos: fn.Pos(), cuda: n.SystemCUDA})
	}
	if n.Managed {
		out = append(out, useRef{kind: managedMem, what: n.ManagedWhat, pos: fn.Pos()})
	}
	return out
}
