package xnack

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"github.com/hiplint/hiplint/internal/cgocall"
	"github.com/hiplint/hiplint/internal/diag"
	"github.com/hiplint/hiplint/internal/flow"
	"github.com/hiplint/hiplint/internal/hipapi"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/cfg"
)

var (
	SystemMemory = diag.Check{ID: "HL4001", Analyzer: "xnack", Severity: diag.Error,
		Title: "system memory reaches the GPU without an XNACK guard"}
	ManagedMemory = diag.Check{ID: "HL4002", Analyzer: "xnack", Severity: diag.Warning,
		Title: "managed memory used without an XNACK guard"}
	LateXNACK = diag.Check{ID: "HL4003", Analyzer: "xnack", Severity: diag.Error,
		Title: "HSA_XNACK set after the HIP runtime initialized"}
	UnskippedTest = diag.Check{ID: "HL4004", Analyzer: "xnack", Severity: diag.Warning,
		Title: "test reaches XNACK-dependent memory without a skip guard"}
	WrongGuard = diag.Check{ID: "HL4005", Analyzer: "xnack", Severity: diag.Error,
		Title: "XNACK guard checks HMM support instead of XNACK"}
)

// Checks lists the check IDs this analyzer reports.
var Checks = []diag.Check{SystemMemory, ManagedMemory, LateXNACK, UnskippedTest, WrongGuard}

var Analyzer = &analysis.Analyzer{
	Name:      "xnack",
	Doc:       doc,
	URL:       diag.DocsBase + "HL4001.md",
	Run:       func(pass *analysis.Pass) (any, error) { return analyze(pass, false) },
	FactTypes: []analysis.Fact{new(Summary), new(GuardsTests)},
	Requires:  []*analysis.Analyzer{flow.IndexAnalyzer},
}

const doc = `check that memory which needs XNACK is used only where XNACK is on

Kernels that touch system memory (C.malloc, mmap, Go memory) fault without
XNACK, and managed memory does not migrate (it acts as pinned host memory).
Programs and tests must check gcnArchName for "xnack+" or
hipDeviceAttributePageableMemoryAccess (cudaDevAttrPageableMemoryAccess on
CUDA), or set HSA_XNACK=1 before the first HIP call. Reports HL4001 (system
memory), HL4002 (managed memory), HL4003 (HSA_XNACK set too late), HL4004
(test without a skip guard) and HL4005 (a managed-memory attribute checked
instead of XNACK).`

// describe is what u is, as seen from entry (its function is named unless
// it is entry).
func (u Need) describe(entry string) string {
	if u.in == entry {
		return strings.TrimSuffix(u.What, " in "+u.in)
	}
	return u.What
}

// needAt is a use in fi at pos: What is completed with where it is.
func needAt(fi *fnInfo, pos token.Pos, system bool, what string, cuda bool) Need {
	if fi.name != "" {
		what += " in " + fi.name
	}
	return Need{System: system, What: what, CUDA: cuda, in: fi.name, pos: pos}
}

// event is what a node does, in evaluation order: a call of a function
// that may have a summary, or a summary of its own (own): what a runtime
// call or HSA_XNACK being set does, or a literal's summary, which it keeps
// as it is analyzed again.
type event struct {
	pos    token.Pos
	own    *Summary
	callee *types.Func
	call   *ast.CallExpr // the call of callee, for its arguments
	mrun   bool          // (*testing.M).Run
}

// fnInfo is one function body and its summary.
type fnInfo struct {
	fn     flow.Func
	obj    *types.Func      // nil for literals
	name   string           // for literals, the enclosing declaration's name
	sig    *types.Signature // obj's, or for literals the enclosing declaration's
	g      *cfg.CFG
	events map[ast.Node][]event
	entry  flow.EntryKind

	sum Summary // the last analysis's summary (summarize)
}

type analyzer struct {
	pass *analysis.Pass
	info *types.Info
	idx  *flow.Index
	// The events of the function evFi (analyze).
	ev   nodeEvents[event]
	evFi *fnInfo
	// active: an event is more than a call, the path analysis runs.
	active bool
	files  []*ast.File
	// ix is the package-wide assignment index, with the out-arguments of
	// allocations (Sources.AddOut: C.hipMalloc(&v, n) gives v); attrs what
	// the variables attribute queries write (v of hipDeviceGetAttribute(&v,
	// attr, dev)) prove when they are 1.
	ix    *flow.Sources
	attrs map[types.Object]guard
	// attrQueries: each query that writes a variable, in order, for a
	// variable reused for several attributes (attrValue).
	attrQueries map[types.Object][]attrQuery
	// What system memory pointers point to, and the trace of what boolean
	// and error variables prove (exprs.go).
	provs    *flow.Origins
	guards   trace[guard]
	funcs    []*fnInfo
	exported []*types.Func
	byNode   map[ast.Node]*fnInfo // by declaration or literal
	sums     *flow.Table[Summary, *Summary]
	found    *flow.Findings // each check once per position (report)
	// hmmNames names the HMM attributes checked instead of XNACK, by the
	// condition's position (for the message).
	hmmNames map[token.Pos]string
	impls    *flow.Impls     // implementations behind interface calls
	kargs    flow.KernelArgs // kernel argument arrays
	// candidates: guards do not count (Candidates).
	candidates bool
}

// Candidates is xnack in candidate mode, for hiplint confirm: XNACK guards do
// not count, so every memory use the analyzer found guarded is reported too
// and confirm can judge the fixed twins. It is never part of the lint suite.
var Candidates = &analysis.Analyzer{
	Name:      Analyzer.Name,
	Doc:       "xnack in candidate mode (hiplint confirm only): every XNACK-dependent memory use, guarded or not",
	Run:       func(pass *analysis.Pass) (any, error) { return analyze(pass, true) },
	FactTypes: Analyzer.FactTypes,
	Requires:  Analyzer.Requires,
}

func analyze(pass *analysis.Pass, candidates bool) (any, error) {
	facts := len(pass.AllObjectFacts()) > 0 // (a new list each call)
	if !cgocall.CallsRuntime(pass.Pkg) && !facts {
		return nil, nil
	}
	a := newAnalyzer(pass, candidates)
	a.summarizeResults()
	// Events need the result summaries: provenance follows constructors.
	// Unless something here can matter for XNACK (a HIP call, a memory
	// use, HSA_XNACK, or a dependency with facts), the path analysis is
	// skipped: without any, every function's effects and uses are none.
	a.active = facts
	// Each function's events, in evaluation order (flow.CallOrder:
	// arguments before the call; function literals are other functions,
	// called where they are written: t.Run, f.Fuzz, go, defer).
	for _, fi := range a.funcs {
		a.evFi = fi
		fi.events = a.ev.Collect(fi.g)
	}
	if a.active {
		a.summarizeUses()
		a.report()
	}
	a.sums.Export(a.exported)
	return nil, nil
}

func newAnalyzer(pass *analysis.Pass, candidates bool) *analyzer {
	// The other maps are made on first use (flow.Put).
	a := &analyzer{pass: pass, info: pass.TypesInfo, candidates: candidates, byNode: map[ast.Node]*fnInfo{},
		impls: flow.NewImpls(pass), idx: flow.IndexOf(pass)}
	a.sums = flow.NewTable[Summary](pass, a.impls)
	a.sums.Meet, a.sums.Imported = meet, importNeeds
	a.ev = nodeEvents[event]{Index: a.idx, Emit: a.callOrEvents}
	support := func(f *ast.File) bool { return cgocall.IsSupportFile(pass.Fset, f) }
	a.files = slices.DeleteFunc(slices.Clone(pass.Files), support)
	a.buildIndex()
	a.collectFuncs()
	return a
}

func (a *analyzer) collectFuncs() {
	var name string
	var sig *types.Signature
	for _, fn := range a.idx.Funcs() {
		test := strings.HasSuffix(a.pass.Fset.Position(fn.Node().Pos()).Filename, "_test.go")
		// A loop over a container that has an element runs its body: a
		// skip guard in it covers what follows (two loops over bufs).
		g := flow.RangesRun(a.idx.CFG(fn.Body), func(rs *ast.RangeStmt) bool { return a.ix.NonEmpty(a.info, rs.X) })
		fi := &fnInfo{fn: fn, g: g} // events: made when the first is kept
		if fn.Decl != nil {
			fi.obj = fn.Object(a.info)
			name, sig = fn.Decl.Name.Name, fn.Signature(a.info)
		}
		fi.name, fi.sig, fi.entry = name, sig, a.idx.Entry(fn, a.info)
		a.funcs = append(a.funcs, fi)
		a.byNode[fn.Node()] = fi
		// The functions whose facts other packages read.
		if fi.obj != nil && fi.obj.Exported() && !test && fi.entry == flow.NotEntry {
			a.exported = append(a.exported, fi.obj)
		}
	}
}

// callOrEvents emits the events of a call or literal of the node walked:
// a literal's summary, what a runtime or C call or setting HSA_XNACK does
// itself (emitOwn), an m.Run, or a call of a function that may have a
// summary.
func (a *analyzer) callOrEvents(n ast.Node) {
	call, ok := n.(*ast.CallExpr)
	if !ok {
		if lit := a.byNode[n]; lit != nil {
			a.ev.Add(event{pos: n.Pos(), own: &lit.sum})
		}
		return
	}
	// FullName builds a string: only the two names that can match need it.
	fn, full := a.idx.Callee(call), ""
	if fn != nil && (fn.Name() == "Setenv" || fn.Name() == "Run") {
		full = fn.FullName()
	}
	name, isC := cgocall.CName(a.info, call)
	switch c := a.idx.Match(call); {
	case c != nil:
		a.emitOwn(call, a.runtimeEvents(c, a.evFi))
	case isC:
		a.emitOwn(call, Summary{Runtime: hipapi.InitializesRuntime(name)})
	case fn == nil || fn.Pkg() == nil:
	case (full == "os.Setenv" || full == "syscall.Setenv") && len(call.Args) == 2:
		if flow.ConstString(a.info, call.Args[0]) == "HSA_XNACK" {
			a.emitOwn(call, Summary{Env: true, Guards: flow.ConstString(a.info, call.Args[1]) == "1"})
		}
	case full == "(*testing.M).Run":
		a.ev.Add(event{pos: call.Pos(), mrun: true})
	default:
		a.ev.Add(event{pos: call.Pos(), callee: fn.Origin(), call: call})
	}
}

// emitOwn emits what call does itself, unless it does nothing (the path
// analysis then runs); calls that only call the runtime share one summary
// (runtime calls are many). A deferred call runs at the exit: it neither
// initializes the runtime nor sets HSA_XNACK where it is written.
func (a *analyzer) emitOwn(call *ast.CallExpr, own Summary) {
	if _, deferred := a.ev.Node.(*ast.DeferStmt); deferred {
		own.Runtime, own.Env, own.Guards = false, false, false
	}
	p := callsRuntime
	if own.Env || len(own.Needs)+len(own.Params) > 0 { // (Guards: only with Env)
		p = new(Summary)
		*p = own
	}
	if own.Runtime || p != callsRuntime {
		a.active = true
		a.ev.Add(event{pos: call.Pos(), own: p})
	}
}

var callsRuntime = &Summary{Runtime: true}

// runtimeEvents is what a runtime call does: initializing HIP, using
// managed or system memory, and handing a parameter's memory to the GPU.
// On NVIDIA managed memory migrates on fault without any XNACK analogue:
// only HIP's managed memory depends on it.
func (a *analyzer) runtimeEvents(c *cgocall.Call, fi *fnInfo) Summary {
	f, hip := c.Func, c.Func.Family == hipapi.HIP
	own, managed := Summary{Runtime: hip}, f.Role == hipapi.Alloc && f.Alloc == hipapi.Managed
	if f.Role == hipapi.MemAdvise || f.Role == hipapi.MemPrefetch || f.Role == hipapi.Launch {
		// The pointer, or the kernelParams array: system memory in it is
		// a use; a parameter of fi's in it, or the array being one, what
		// the caller passes decides. Else the pointer is managed memory.
		arg, launch := c.Arg(f.Ptr), f.Role == hipapi.Launch
		if launch {
			arg = c.Arg(f.KernelArgs)
		}
		pf := ParamFlow{API: f.Name, In: fi.name, CUDA: !hip, Array: launch, site: c.Pos()}
		own.Needs, own.Params = a.reach(fi, arg, pf, nil)
		managed = own.Needs == nil && !launch
	}
	if managed && hip {
		own.Needs = append(own.Needs, needAt(fi, c.Pos(), false, f.Name, false))
	}
	return own
}

// state is what holds at a point of a function.
type state struct {
	guarded bool      // on every path, XNACK was checked (or HSA_XNACK=1 set in time)
	wrongAt token.Pos // on every path, an HMM attribute was checked here instead
	ranAt   token.Pos // on some path, the HIP runtime was already called here
}

func join(a, b state) state {
	out := state{guarded: a.guarded && b.guarded, ranAt: b.ranAt}
	if a.ranAt.IsValid() && (!b.ranAt.IsValid() || a.ranAt < b.ranAt) {
		out.ranAt = a.ranAt
	}
	switch {
	case a.guarded:
		out.wrongAt = b.wrongAt
	case b.guarded:
		out.wrongAt = a.wrongAt
	case a.wrongAt.IsValid() && b.wrongAt.IsValid():
		out.wrongAt = min(a.wrongAt, b.wrongAt)
	}
	return out
}

// walker is one walk of a function, and what it found. When reporting
// (found set), a walk that is not a test's reports what is wrong wherever
// the function is called from: HSA_XNACK set after a runtime call on the
// same path (HL4003), and uses guarded by an HMM attribute (HL4005).
type walker struct {
	a          *analyzer
	fi         *fnInfo
	noEnvGuard bool // tests: setting HSA_XNACK there comes after other tests ran
	// The uses reached unguarded, and the parameters that reach the GPU
	// unguarded, by site.
	unguarded []Need
	params    []ParamFlow
	// The calls of m.Run, and whether one of them is unguarded.
	mruns    int
	mrunOpen bool
	returns  []returnAt[state] // each return statement's state
	exit     state             // joined over normal exits
	sawExit  bool
}

// step is the transfer function of one event; with record, it also
// records what the event does in s, at the fixpoint. The events of a defer
// statement run at the exit: they neither initialize the runtime nor set
// HSA_XNACK where they are written.
func (w *walker) step(ev event, s state, record, deferred bool) state {
	sum := w.a.calleeOf(ev)
	if deferred {
		// Not where it is written: a deferred call runs at the exit.
		sum.Runtime, sum.Env, sum.Guards = false, false, false
	}
	late := sum.Env && s.ranAt.IsValid() && !w.noEnvGuard
	if record {
		if late && w.a.found != nil {
			w.a.found.Report(LateXNACK, ev.pos, token.NoPos,
				"HSA_XNACK is set after a HIP runtime call has already run on this path: the runtime reads it "+
					"once, when it initializes, so this has no effect; set it before the first HIP call "+
					"(in init, at the top of main, or in TestMain before m.Run)",
				[]diag.Related{{Pos: s.ranAt, Message: "the HIP runtime is initialized here"}})
		}
		if ev.mrun {
			w.mruns, w.mrunOpen = w.mruns+1, w.mrunOpen || !s.guarded
		}
		w.uses(ev, sum, s)
	}
	if sum.Runtime && !s.ranAt.IsValid() {
		s.ranAt = ev.pos
	}
	s.guarded = s.guarded || sum.Guards && !late && !(sum.Env && w.noEnvGuard)
	return s
}

// uses records the uses the event reaches, and applies its parameter flows
// to the call's arguments: system memory passed in one is a use here; a
// parameter of the walked function passed in one makes a flow of its own.
func (w *walker) uses(ev event, sum Summary, s state) {
	for _, u := range sum.Needs {
		w.use(ev.pos, u, s)
	}
	if s.guarded && !w.a.candidates {
		return
	}
	for _, pf := range sum.Params {
		// A literal's or the node's own flows are the walked function's
		// parameters; a callee's (calleeOf) apply at the call to its
		// arguments (a method expression ((*T).M) or a method value has no
		// receiver; variadic arguments only as an argument array).
		pf.site = ev.pos
		flows := []ParamFlow{pf}
		if ev.callee != nil {
			arg := flow.PassedArg(w.a.info, ev.call, ev.callee.Signature(), pf.Ref, pf.Array)
			if arg == nil {
				continue
			}
			var needs []Need
			needs, flows = w.a.reach(w.fi, arg, pf, ev.callee)
			for _, u := range needs {
				w.use(ev.pos, u, s)
			}
		}
		w.params = append(w.params, flows...)
	}
}

func (w *walker) use(site token.Pos, u Need, s state) {
	switch {
	case s.guarded && !w.a.candidates:
	case s.wrongAt.IsValid() && !w.a.candidates:
		if w.a.found != nil && !w.noEnvGuard {
			w.a.found.Report(WrongGuard, s.wrongAt, token.NoPos,
				fmt.Sprintf("%s reports HMM (managed memory) support, not XNACK: it can be 1 while XNACK is off, "+
					"so the use it guards (%s) still %s; check hipDeviceAttributePageableMemoryAccess == 1 or "+
					"that gcnArchName contains \"xnack+\" instead", w.a.hmmNames[s.wrongAt], u.describe(""),
					outcomes[u.System]),
				[]diag.Related{{Pos: u.pos, Message: u.describe("")}})
		}
	default:
		u.site = site
		w.unguarded = append(w.unguarded, u)
	}
}

// branch refines s by what cond being taken proves. The name of an HMM
// attribute checked instead of XNACK is kept, by the condition's position,
// for the message.
func (w *walker) branch(cond ast.Expr, taken bool, s state) state {
	switch g := w.a.implies(cond, taken, w.a.guards.Start()); g.kind {
	case xnackCheck:
		s.guarded = true
	case hmmCheck:
		if !s.wrongAt.IsValid() {
			s.wrongAt = cond.Pos()
			flow.Put(&w.a.hmmNames, cond.Pos(), g.name)
		}
	}
	return s
}

// walk solves fi's flow from entry, then records what happens at the
// fixpoint in a separate walk over the solution (flow.SolveRecord, with a
// transfer that records: recording leaves the states as they are), which
// also joins the states at the exits.
func (a *analyzer) walk(fi *fnInfo, entry state, noEnvGuard bool) *walker {
	w := &walker{a: a, fi: fi, noEnvGuard: noEnvGuard}
	transfer := func(record bool) func(ast.Node, state) state {
		return func(n ast.Node, s state) state {
			_, deferred := n.(*ast.DeferStmt)
			for _, ev := range fi.events[n] {
				s = w.step(ev, s, record, deferred)
			}
			if ret, ok := n.(*ast.ReturnStmt); ok && record {
				w.returns = append(w.returns, returnAt[state]{Ret: ret, S: s})
			}
			return s
		}
	}
	p := valueStates(flow.Problem[state]{Entry: entry, Join: join, Transfer: transfer(false),
		Branch: w.branch})
	w.exit, w.sawExit = solveRecord(a.info, fi.g, p, transfer(true))
	slices.SortStableFunc(w.unguarded, func(x, y Need) int { return cmp.Compare(x.site, y.site) })
	slices.SortStableFunc(w.params, func(x, y ParamFlow) int { return cmp.Compare(x.site, y.site) })
	return w
}

// report walks every function for HL4003 and HL4005, then the entry points
// in the order the Go runtime runs them (init functions, then main or
// TestMain, then the tests) for HL4001, HL4002 and HL4004.
func (a *analyzer) report() {
	a.found = flow.NewFindings(a.pass)
	for _, fi := range a.funcs {
		// What a walk reports wherever fi is called from comes from
		// events: a function without any has nothing to walk for.
		if len(fi.events) > 0 {
			a.walk(fi, state{}, false)
		}
	}
	// The entry points, by kind in the order the Go runtime runs them
	// (flow.EntryKind's order).
	after, testsGuarded := state{ranAt: a.varInitRuntime()}, a.guardedByTestMain()
	for kind := flow.InitEntry; kind <= flow.TestEntry; kind++ {
		funcs := a.funcs
		if kind == flow.InitEntry { // in the order they run (flow.InitOrder)
			funcs = nil
			for _, fn := range flow.InitOrder(a.idx) {
				funcs = append(funcs, a.byNode[fn.Node()])
			}
		}
		for _, fi := range funcs {
			if fi == nil || fi.entry != kind {
				continue
			}
			if kind == flow.TestEntry {
				r := a.walk(fi, state{guarded: testsGuarded || after.guarded}, true)
				a.reportTest(fi.name, r.unguarded)
				continue
			}
			r := a.walk(fi, after, false)
			switch {
			case kind == flow.InitEntry && a.pass.Pkg.Name() != "main":
				// A library's init runs in every program and test binary
				// that imports the package.
				a.reportProgram("init of package "+a.pass.Pkg.Name()+" (it runs in every program and test that imports it)", r.unguarded)
			default:
				a.reportProgram(fi.name, r.unguarded)
			}
			switch {
			case kind == flow.InitEntry && r.sawExit:
				after = r.exit
			case kind == flow.TestMainEntry && r.mruns > 0 && !r.mrunOpen:
				testsGuarded = true
				if fi.obj != nil {
					a.pass.ExportObjectFact(fi.obj, &GuardsTests{})
				}
			}
		}
	}
}

// GuardsTests is the fact that a TestMain runs the tests only where XNACK
// is on (it sets HSA_XNACK before any HIP call, or exits unless XNACK is
// on, before every m.Run). A test binary has one TestMain for the package
// and its external tests (package p_test): the external test package,
// analyzed after the package under test, reads this fact from that
// package's TestMain.
type GuardsTests struct{}

func (*GuardsTests) AFact()         {}
func (*GuardsTests) String() string { return "guardsTests" }

// guardedByTestMain reports whether this package is an external test
// package (p_test) whose binary's TestMain, declared in the package under
// test, guards its tests (GuardsTests). A TestMain of its own is walked
// instead (report).
func (a *analyzer) guardedByTestMain() bool {
	path, ok := strings.CutSuffix(a.pass.Pkg.Path(), "_test")
	if !ok || a.pass.Pkg.Scope().Lookup("TestMain") != nil {
		return false
	}
	for _, imp := range a.pass.Pkg.Imports() {
		if imp.Path() != path {
			continue
		}
		if tm, ok := imp.Scope().Lookup("TestMain").(*types.Func); ok {
			return a.pass.ImportObjectFact(tm, new(GuardsTests))
		}
	}
	return false
}

// The guards the messages name: XNACK's, and its analogue on NVIDIA.
const xnackGuard = `gcnArchName contains "xnack+" or hipDeviceAttributePageableMemoryAccess is 1`
const cudaGuard = "cudaDevAttrPageableMemoryAccess is 1 (NVIDIA has no XNACK; this is its analogue)"

// outcomes is what each kind of memory does on a GPU without XNACK.
var outcomes = map[bool]string{
	true:  "faults (\"Memory access fault by GPU ... Page not present\")",
	false: "does not migrate (it is pinned host memory) and can hang code that waits on it",
}

// related lists every site's use, for the diagnostic's secondary positions.
func related(sites []Need, entry string) []diag.Related {
	var out []diag.Related
	for _, s := range sites {
		if !slices.ContainsFunc(out, func(r diag.Related) bool { return r.Pos == s.pos }) {
			out = append(out, diag.Related{Pos: s.pos, Message: s.describe(entry)})
		}
	}
	return out
}

// byKind is the sites of one kind of memory.
func byKind(sites []Need, system bool) []Need {
	return slices.DeleteFunc(slices.Clone(sites), func(s Need) bool { return s.System != system })
}

// reportProgram reports an entry point of a program (main, init, TestMain)
// that reaches unguarded memory uses: one diagnostic per check, at the first
// site in the entry, with every use as a related position.
func (a *analyzer) reportProgram(entry string, uses []Need) {
	if sys := byKind(uses, true); len(sys) > 0 {
		guard, alt := xnackGuard, "hipMalloc or hipHostMalloc"
		if sys[0].CUDA {
			guard, alt = cudaGuard, "cudaMalloc or cudaMallocHost"
		}
		a.found.Report(SystemMemory, sys[0].site, token.NoPos,
			fmt.Sprintf("%s reaches %s without an XNACK guard: without XNACK the GPU cannot fault the "+
				"pages in and the kernel aborts (\"Memory access fault by GPU ... Page not "+
				"present\"); run it only when %s, or use %s memory",
				entry, sys[0].describe(entry), guard, alt),
			related(sys, entry))
	}
	if man := byKind(uses, false); len(man) > 0 {
		a.found.Report(ManagedMemory, man[0].site, token.NoPos,
			fmt.Sprintf("%s uses managed memory (%s) without an XNACK guard: without XNACK it does not "+
				"migrate and falls back to pinned host memory, so every GPU access crosses the bus, "+
				"and code that waits for the GPU to write it can hang; check that %s, or set "+
				"HSA_XNACK=1 before the first HIP call", entry, man[0].describe(entry), xnackGuard),
			related(man, entry))
	}
}

// reportTest reports a test, benchmark, example or fuzz target that reaches
// unguarded memory uses, at the first use of system memory, else of
// managed memory (HL4004 stands in for HL4001/HL4002 there: the fix is the
// skip).
func (a *analyzer) reportTest(entry string, uses []Need) {
	if len(uses) == 0 {
		return
	}
	first := firstUses(uses)[0]
	fix := "skip unless XNACK is on (if !xnackEnabled() { t.Skip(...) }) or set HSA_XNACK=1 in TestMain " +
		"before m.Run"
	if first.CUDA {
		fix = "skip unless " + cudaGuard
	}
	a.found.Report(UnskippedTest, first.site, token.NoPos,
		fmt.Sprintf("%s reaches %s memory (%s) with no XNACK skip guard: on a GPU without XNACK it %s; %s",
			entry, first, first.describe(entry), outcomes[first.System], fix),
		related(uses, entry))
}

// varInitRuntime returns a HIP call made by a package-level variable's
// initializer, which runs before every init function and main.
func (a *analyzer) varInitRuntime() token.Pos {
	first := token.NoPos
	varInitCalls(a.info, a.files, func(call *ast.CallExpr) bool {
		name, isC := cgocall.CName(a.info, call)
		c, fn := a.idx.Match(call), a.idx.Callee(call)
		if isC && hipapi.InitializesRuntime(name) || c != nil && c.Func.Family == hipapi.HIP ||
			fn != nil && a.sums.Get(fn.Origin()).Runtime {
			first = call.Pos()
		}
		return !first.IsValid()
	})
	return first
}
