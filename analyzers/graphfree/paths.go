package graphfree

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"maps"
	"slices"
	"strings"

	"github.com/hiplint/hiplint/internal/cgocall"
	"github.com/hiplint/hiplint/internal/diag"
	"github.com/hiplint/hiplint/internal/flow"
	"github.com/hiplint/hiplint/internal/hipapi"
	"github.com/hiplint/hiplint/internal/knowledge/status"
	"golang.org/x/tools/go/cfg"
	"golang.org/x/tools/go/types/typeutil"
)

// val is what a location may hold: addresses from allocation sites, graph
// nodes, and addresses of other locations (for &x, used to follow kernel
// argument arrays and node dependency arrays). Slices are sorted sets and
// never modified in place.
type val struct {
	sites []int
	nodes []int
	refs  []flow.Loc
}

func (v val) Empty() bool { return len(v.sites) == 0 && len(v.nodes) == 0 && len(v.refs) == 0 }

func (v val) Union(w val) val {
	return val{sites: unionInts(v.sites, w.sites),
		nodes: unionInts(v.nodes, w.nodes), refs: flow.UnionSorted(v.refs, w.refs, compareLoc)}
}

func unionInts(a, b []int) []int { return flow.UnionSorted(a, b, cmp.Compare[int]) }

func (v val) Equal(w val) bool {
	return slices.Equal(v.sites, w.sites) && slices.Equal(v.nodes, w.nodes) && slices.Equal(v.refs, w.refs)
}

// tree is a value with its parts: "" is the value itself, ".f" a field,
// "[]" the elements.
type tree = storeTree[val]

// Capture state of a stream on the paths reaching a point.
const (
	capturing    uint8 = 1
	notCapturing uint8 = 2
)

// freeRec is the first free of an allocation on the paths reaching a point;
// maybe is set when some of those paths did not free it.
type freeRec struct {
	pos   token.Pos
	e     ast.Expr // what it freed, as written
	name  string
	node  bool
	maybe bool
}

type state struct {
	vals    valueStore[val]  // what locations hold
	capture map[string]uint8 // stream expression → capture bits; absent: not capturing
	freed   map[int]freeRec  // allocation site → its first free
	// paramFreed holds the parameters' memory that hipFree/hipFreeAsync
	// freed on every path here (for the FreesParam summary).
	paramFreed map[ParamPath]bool
	// status maps a variable holding a call's status (err := check(...)) to
	// the allocation sites that call made; failed holds the sites whose
	// allocation failed on every path here (where the status said so).
	status status.Statuses
	failed map[int]bool
}

func cloneState(s *state) *state {
	return &state{vals: s.vals.Clone(), capture: cloneMap(s.capture),
		freed: cloneMap(s.freed), paramFreed: cloneMap(s.paramFreed),
		status: s.status, // immutable: shared
		failed: cloneMap(s.failed)}
}

// captureBits is the capture state of the stream named key (bits are never
// zero: absent is not capturing).
func (s *state) captureBits(key string) uint8 { return cmp.Or(s.capture[key], notCapturing) }

// allocate records at l the memory an allocation at site i makes: neither
// freed nor failed yet.
func (s *state) allocate(l flow.Loc, i int) {
	delete(s.freed, i)
	delete(s.failed, i)
	s.vals.Set(l, tree{"": {sites: []int{i}}})
}

// capturedKind is the kind of memory of kind k allocated on a stream whose
// capture bits are one of bits: stream-ordered memory is captured if one of
// them is capturing, maybe captured if one is on some paths.
func capturedKind(k Kind, bits ...uint8) Kind {
	switch {
	case k.class() != streamClass:
		return k
	case slices.Contains(bits, capturing):
		return KindCaptured
	case slices.Contains(bits, capturing|notCapturing):
		return KindMaybeCaptured
	}
	return k
}

func joinState(into, from *state) *state {
	into.vals.Join(&from.vals)
	for k := range from.capture {
		flow.Put(&into.capture, k, into.captureBits(k)|from.captureBits(k))
	}
	for k := range into.capture {
		into.capture[k] |= from.captureBits(k)
	}
	// A path where the allocation failed frees nothing and needs nothing
	// freed: it does not make a free on the other path a maybe.
	for k, r := range into.freed {
		if _, ok := from.freed[k]; !ok && !r.maybe && !from.failed[k] {
			r.maybe = true
			into.freed[k] = r
		}
	}
	for k, r := range from.freed {
		if _, ok := into.freed[k]; !ok {
			r.maybe = r.maybe || !into.failed[k]
			flow.Put(&into.freed, k, r)
		}
	}
	maps.DeleteFunc(into.failed, func(k int, _ bool) bool { return !from.failed[k] })
	maps.DeleteFunc(into.paramFreed, func(p ParamPath, _ bool) bool { return !from.paramFreed[p] })
	into.status = into.status.Join(from.status)
	return into
}

func equalState(a, b *state) bool {
	return maps.Equal(a.capture, b.capture) && maps.Equal(a.failed, b.failed) && maps.Equal(a.paramFreed, b.paramFreed) &&
		maps.EqualFunc(a.freed, b.freed, func(r, q freeRec) bool { return r.maybe == q.maybe }) &&
		a.status.Equal(b.status) && a.vals.Equal(&b.vals)
}

// allocSite is an abstract allocation: one call (or address-of) that produces
// memory of one kind.
type allocSite struct {
	pos  token.Pos
	api  string // what allocated it: "hipMalloc", "hipMalloc (via NewBuffer)", "the address of x"
	kind Kind
	fam  hipapi.Family
}

type siteKey struct {
	pos  token.Pos
	kind Kind
	tag  string
}

// nodeSite is an abstract graph node: one node-adding call. Its edges and
// uses accumulate over every path and iteration.
type nodeSite struct {
	id          int // its number in funcAnalysis.nodes
	call        *cgocall.Call
	deps        map[int]bool // nodes it depends on: its dependency array, hipGraphAddDependencies
	depsUnknown bool
	uses        map[int]bool // allocation sites the node reads or writes
	frees       map[int]bool // allocation sites a free node frees
	ptr         string       // a free node's pointer expression
}

type funcAnalysis struct {
	*analyzer
	ev           evaluator[*state, val]
	calls        flow.Effects[*state] // the calls in each node, in evaluation order (no C or Read hook)
	fn           flow.Func
	cfg          *cfg.CFG
	info         *types.Info
	sig          *types.Signature
	sites        []*allocSite
	siteOf       map[siteKey]int
	nodes        flow.Sites[*nodeSite] // by node-adding call
	edgesUnknown bool                  // hipGraphAddDependencies on nodes the analysis cannot name
	rangeOf      map[ast.Expr]*ast.RangeStmt
	loops        []flow.PosRange       // bodies of the function's loops
	in           flow.Solution[*state] // the solution
	closures     int                   // depth of in-place closures being walked
	found        []finding             // what the last walk found, one per check and position
	// summaries found while solving
	returned    []ReturnedAlloc
	freedParams []ParamPath
	hostFreed   []ParamPath // freed by hipFree on every return
	// streams of parameters this function begins or ends capturing, by
	// the expression that names them; whether the capture is left begun
	// or ended is decided at the returns.
	beginCands, endCands map[ParamPath]string
	captureAtReturn      map[ParamPath]uint8
}

// captureSummary returns the parameters' streams the function leaves
// capturing, and those it ends capturing without beginning, on every return.
func (fa *funcAnalysis) captureSummary() (begins, ends []ParamPath) {
	for p := range fa.beginCands {
		if fa.captureAtReturn[p] == capturing {
			begins = append(begins, p)
		}
	}
	for p := range fa.endCands {
		if _, begun := fa.beginCands[p]; !begun && fa.captureAtReturn[p] == notCapturing {
			ends = append(ends, p)
		}
	}
	return begins, ends
}

func newFuncAnalysis(a *analyzer, fn flow.Func) *funcAnalysis {
	fa := &funcAnalysis{
		analyzer: a, fn: fn, info: a.pass.TypesInfo, sig: fn.Signature(a.pass.TypesInfo),
		siteOf:     map[siteKey]int{},
		beginCands: map[ParamPath]string{}, endCands: map[ParamPath]string{}, captureAtReturn: map[ParamPath]uint8{},
	}
	fa.ev = evaluator[*state, val]{Pass: a.pass, Locator: a.lc, Store: func(s *state) *valueStore[val] { return &s.vals },
		Call: fa.callValue, Go: fa.goSite, GoPart: fa.goPart,
		Offset: func(v val) val { return val{sites: v.sites} }, Ref: func(l flow.Loc) val { return val{refs: []flow.Loc{l}} },
		Sources: a.sources()}
	fa.loops, fa.rangeOf = a.idx.Loops(fn.Body)
	fa.calls = flow.Effects[*state]{Index: a.idx, Lit: fa.lit, Runtime: fa.runtimeCall, Other: fa.otherCall}
	return fa
}

func (fa *funcAnalysis) problem() flow.Problem[*state] {
	return flow.Problem[*state]{
		// The entry's maps are nil until written (flow.Put): the solver
		// clones states at every block and edge, and most maps are empty.
		Entry: &state{}, Clone: cloneState, Join: joinState, Equal: equalState, Transfer: fa.transfer,
		Branch: fa.branch,
	}
}

// solve solves the function and records, for its summary, the parameters'
// memory it frees with hipFree/hipFreeAsync on every path that returns.
func (fa *funcAnalysis) solve() {
	fa.cfg = fa.idx.CFG(fa.fn.Body)
	fa.in = flow.Solve(fa.cfg, fa.problem())
	var freed map[ParamPath]bool
	seen := false
	flow.AtExits(fa.info, fa.cfg, fa.in, fa.problem(), func(st *state) {
		if !seen {
			freed, seen = st.paramFreed, true
		}
		flow.JoinIntersect(freed, st.paramFreed, func(a, _ bool) bool { return a })
	})
	fa.hostFreed = slices.Collect(maps.Keys(freed))
	slices.SortFunc(fa.hostFreed, flow.CompareRef)
}

// finding is one diagnostic a walk found.
type finding struct {
	check    diag.Check
	pos, end token.Pos
	msg      string
	related  []diag.Related
}

// report is the reporting pass: one walk over the final solution (what the
// walks to the fixpoint found stood on states short of it, and is dropped),
// then the graph's dependencies.
func (fa *funcAnalysis) report() {
	fa.found = nil
	// The report is the solution's last use (Summaries.Report calls it
	// once): its states are walked in place.
	// The function's deferred closures and a test's Cleanup closures run
	// at each exit, on the variables as they are there.
	defers := flow.FuncDeferrals(fa.pass, fa.fn)
	flow.ReplayExitsAt(fa.info, fa.cfg, fa.in.Last(), fa.problem(), func(ast.Node, *state) {}, func(at token.Pos, s *state) {
		flow.RunDeferred(fa.fn.Body, defers, at, s, cloneState, fa.idx.IsWrapper, fa.inlineClosure, nil)
	})
	fa.in = flow.Solution[*state]{}
	fa.checkDependencies()
	for _, f := range fa.found {
		// A closure run in its function (stored, deferred, a goroutine's,
		// a Cleanup) is also a function of its own: one report.
		k := reportKey{f.check.ID, f.pos}
		if fa.reportedAt[k] {
			continue
		}
		flow.Put(&fa.reportedAt, k, true)
		diag.Report(fa.pass, f.check, f.pos, f.end, f.msg, f.related)
	}
}

func (fa *funcAnalysis) site(pos token.Pos, kind Kind, api, tag string, fam hipapi.Family) int {
	key := siteKey{pos: pos, kind: kind, tag: tag}
	if i, ok := fa.siteOf[key]; ok {
		return i
	}
	i := len(fa.sites)
	fa.siteOf[key] = i
	fa.sites = append(fa.sites, &allocSite{pos: pos, api: api, kind: kind, fam: fam})
	return i
}

func (fa *funcAnalysis) node(c *cgocall.Call) *nodeSite {
	i := fa.nodes.Add(c.Expr, 0, func() *nodeSite {
		return &nodeSite{id: len(fa.nodes.List), call: c, deps: map[int]bool{}, uses: map[int]bool{}, frees: map[int]bool{}}
	})
	return fa.nodes.List[i]
}

func (fa *funcAnalysis) transfer(n ast.Node, s *state) *state {
	switch n := n.(type) {
	case *ast.DeferStmt:
		fa.deferStmt(n, s)
		return s
	case *ast.GoStmt:
		fa.goStmt(n, s)
		return s
	}
	// The runtime calls and summarized calls in n, arguments first, in
	// source order.
	fa.calls.Walk(n, s)
	switch n := n.(type) {
	case *ast.AssignStmt, *ast.ValueSpec:
		fa.ev.Assign(n, s)
		lhs, rhs, _ := flow.Sides(n)
		s.status = s.status.Assign(fa.info, lhs, rhs, fa.allocsIn)
	case *ast.ReturnStmt:
		if fa.closures == 0 { // a closure's return is not the function's
			fa.collectReturn(n, s)
		}
	case *ast.SendStmt:
		fa.ev.Send(n, s)
	case ast.Expr:
		if rs, ok := fa.rangeOf[n]; ok {
			fa.ev.Range(rs, n, s)
		}
	}
	return s
}

// lit is the hook for a function literal written in a node.
func (fa *funcAnalysis) lit(lit *ast.FuncLit, s *state) {
	if fa.idx.IsWrapper(lit) {
		// A C function outside the model may write through the
		// addresses it is passed (C.myAlloc(&p)).
		for _, l := range fa.lc.WrapperAddressed(lit) {
			s.vals.Forget(l)
		}
	}
	// A closure that runs in place (ctx.Do(func() error {...})) runs
	// here, on this function's variables; other closures are other
	// functions.
	if fa.idx.InPlace(lit) {
		fa.inlineClosure(lit, s)
	}
}

// allocsIn returns the allocation sites of the calls in e.
func (fa *funcAnalysis) allocsIn(e ast.Expr) []int {
	var out []int
	for i, site := range fa.sites {
		if site.kind != KindGo && site.kind != KindCHeap && e.Pos() <= site.pos && site.pos < e.End() {
			out = append(out, i)
		}
	}
	return out
}

// branch drops, where a status says the call failed (err != nil, r != 0),
// the allocations that call made: they hold no memory and need no free.
func (fa *funcAnalysis) branch(cond ast.Expr, taken bool, s *state) *state {
	sites := s.status.FailedSites(fa.info, cond, taken, fa.allocsIn)
	if len(sites) == 0 {
		return s
	}
	s.vals.Update(func(v val) (val, bool) {
		kept := slices.DeleteFunc(slices.Clone(v.sites), func(i int) bool { return slices.Contains(sites, i) })
		return val{sites: kept, nodes: v.nodes, refs: v.refs}, len(kept) != len(v.sites)
	})
	for _, i := range sites {
		delete(s.freed, i)
		flow.Put(&s.failed, i, true)
	}
	return s
}

// deferStmt handles a defer statement. A deferred call's function and
// arguments are evaluated here: a deferred free (defer gr.Free(a, p),
// defer C.hipGraphAddMemFreeNode(...)) frees the memory its argument holds
// here, whatever the variable holds at exit, and is checked here. A
// deferred closure (defer func() {...}()) reads the variables at exit:
// only its arguments are evaluated here, and it runs at each exit of the
// reporting walk (report, flow.RunDeferred).
func (fa *funcAnalysis) deferStmt(d *ast.DeferStmt, s *state) {
	if lit, ok := ast.Unparen(d.Call.Fun).(*ast.FuncLit); ok && !fa.idx.IsWrapper(lit) {
		for _, arg := range d.Call.Args {
			fa.calls.Walk(arg, s)
		}
		return
	}
	fa.calls.Walk(d.Call, s)
}

// goStmt handles a go statement: its arguments are evaluated here, and a
// goroutine's closure (go func() {...}()) runs at some point after it, on
// the variables it captures: it runs here on a copy of the state, so that
// what it frees is checked against their provenance, while the function's
// own frees do not count on it.
func (fa *funcAnalysis) goStmt(g *ast.GoStmt, s *state) {
	for _, arg := range g.Call.Args {
		fa.calls.Walk(arg, s)
	}
	if lit := flow.GoLit(g, fa.idx.IsWrapper); lit != nil {
		fa.inlineClosure(lit, cloneState(s))
	}
}

// inlineClosure walks an in-place closure's body from s, with its own
// control flow, and leaves in s the state at its normal exits.
func (fa *funcAnalysis) inlineClosure(lit *ast.FuncLit, s *state) {
	fa.closures++
	var kept []finding
	out, ok := flow.ClosureExits(fa.idx, lit, s, fa.problem(), func(final bool) {
		// What the walks to the closure's fixpoint found is dropped.
		if final {
			fa.found = kept
		} else {
			kept = slices.Clone(fa.found)
		}
	})
	fa.closures--
	if ok {
		*s = *out
	}
}

func (fa *funcAnalysis) otherCall(call *ast.CallExpr, s *state) {
	// A closure held in a local variable for good runs where it is
	// called (flow.Index.StoredLit; not Effects.Stored, whose calls of
	// method values are made at the method value's position: Index.Callee
	// resolves those here).
	if lit := fa.idx.StoredLit(call); lit != nil {
		fa.inlineClosure(lit, s)
		return
	}
	if flow.IsConversion(fa.info, call) || cgocall.IsCHeapAlloc(fa.info, call) {
		return
	}
	fn := fa.idx.Callee(call)
	if f, ok := fa.frees.Of(fn); ok {
		for i, ps := range [][]ParamPath{f.Params, f.Host} {
			for _, p := range ps {
				if e := fa.idx.ArgAt(call, p.Param); e != nil {
					fa.free(call, e, p.Path, fn.Name(), "", i == 0, 0, s)
				}
			}
		}
		return
	}
	if c, ok := fa.captures.Of(fn); ok {
		for i, ps := range [][]ParamPath{c.Begins, c.Ends} {
			for _, p := range ps {
				if e := fa.idx.ArgAt(call, p.Param); e != nil {
					fa.capture(s, fa.streamKey(e, p.Path), i == 0, e, p.Path)
				}
			}
		}
		return
	}
	_, returns := fa.returns.Of(fn)
	_, getter := flow.GetterOf(fa.pass, fn)
	if _, builtin := typeutil.Callee(fa.info, call).(*types.Builtin); returns || getter || builtin || readsOnly(fn) {
		return
	}
	// An unknown function may write through the addresses it gets.
	for _, l := range fa.lc.Addressed(call.Args) {
		s.vals.Forget(l)
	}
}

// streamKey names the stream at path inside e (a stream argument, or what
// a wrapper reaches in its argument) the way the caller writes it: s.h for
// the receiver s and path .h.
func (fa *funcAnalysis) streamKey(e ast.Expr, path string) string {
	if e == nil {
		return "<null stream>"
	}
	return types.ExprString(flow.StripAddr(flow.StripConversions(fa.info, e))) + path
}

func (fa *funcAnalysis) runtimeCall(c *cgocall.Call, s *state) {
	f := c.Func
	switch f.Role {
	case hipapi.GraphAllocNode, hipapi.GraphFreeNode, hipapi.GraphKernelNode, hipapi.GraphCopyNode, hipapi.GraphMemsetNode:
		// A node-adding call: its dependencies first, its out parameter last.
		deps, ok := fa.nodesAt(c.Arg(f.Deps), c.Arg(f.NumDeps), s)
		fa.addDeps(fa.node(c), deps, ok)
		defer fa.setNode(c, s)
	}
	switch f.Role {
	case hipapi.Alloc:
		l, ok := fa.lc.Target(c.Arg(f.Out))
		if !ok {
			return
		}
		kind := capturedKind(allocKinds[f.Alloc], s.captureBits(fa.streamKey(c.Arg(f.Stream), "")))
		s.allocate(l, fa.site(c.Pos(), kind, f.Name, "", f.Family))
	case hipapi.Free:
		// hipFreeAsync on a stream under capture on every path here is
		// recorded in the graph as a free node, and is one (HL3001,
		// HL3002, HL3004); its dependencies are the stream's order.
		if st := c.Arg(f.Stream); st != nil && s.captureBits(fa.streamKey(st, "")) == capturing {
			fa.free(c.Expr, c.Arg(f.Ptr), "", f.Name, f.Name+" during stream capture (a free node)", true, f.Family, s)
			return
		}
		fa.free(c.Expr, c.Arg(f.Ptr), "", f.Name, "", false, f.Family, s)
	case hipapi.GraphAllocNode:
		if l, ok := fa.lc.Target(c.Arg(f.Params)); ok {
			s.allocate(l.Field("dptr"), fa.site(c.Pos(), KindGraph, f.Name, "", f.Family))
		}
	case hipapi.GraphFreeNode:
		nd := fa.node(c)
		nd.ptr = types.ExprString(c.Arg(f.Ptr))
		for _, i := range fa.free(c.Expr, c.Arg(f.Ptr), "", f.Name, "", true, f.Family, s).sites {
			nd.frees[i] = true
		}
	case hipapi.GraphKernelNode, hipapi.GraphCopyNode, hipapi.GraphMemsetNode:
		nd := fa.node(c)
		for _, i := range fa.usesOf(c, s) {
			nd.uses[i] = true
		}
	case hipapi.GraphDependencies:
		// Each node of To depends on each node of From.
		froms, fromOK := fa.nodesAt(c.Arg(f.From), c.Arg(f.NumDeps), s)
		tos, toOK := fa.nodesAt(c.Arg(f.To), c.Arg(f.NumDeps), s)
		if !toOK || c.Arg(f.NumDeps) == nil {
			fa.edgesUnknown = true
			return
		}
		for _, t := range tos {
			fa.addDeps(fa.nodes.List[t], froms, fromOK)
		}
	case hipapi.CaptureBegin, hipapi.CaptureEnd:
		fa.capture(s, fa.streamKey(c.Arg(f.Stream), ""), f.Role == hipapi.CaptureBegin, c.Arg(f.Stream), "")
	}
}

// setNode records the node a node-adding call writes to its out parameter.
func (fa *funcAnalysis) setNode(c *cgocall.Call, s *state) {
	if l, ok := fa.lc.Target(c.Arg(c.Func.Out)); ok {
		s.vals.Set(l, tree{"": {nodes: []int{fa.node(c).id}}})
	}
}

// addDeps records that nd depends on deps (ok: on no other nodes).
func (fa *funcAnalysis) addDeps(nd *nodeSite, deps []int, ok bool) {
	nd.depsUnknown = nd.depsUnknown || !ok
	for _, d := range deps {
		nd.deps[d] = true
	}
}

// nodesAt resolves a dependency array argument (nil, &node, &deps[0],
// unsafe.SliceData(deps)) to the nodes it holds; ok is false when some entry
// is unknown.
func (fa *funcAnalysis) nodesAt(arr, n ast.Expr, s *state) ([]int, bool) {
	if emptyArray(fa.info, arr, n) {
		return nil, true
	}
	v := fa.ev.Eval(arr, s)[""]
	if len(v.refs) == 0 {
		return nil, false
	}
	var out []int
	for _, r := range v.refs {
		d := fa.deref(r, s)
		if len(d.nodes) == 0 {
			return nil, false
		}
		out = unionInts(out, d.nodes)
	}
	return out, true
}

// deref returns what is stored at r, or in its elements when r is an array.
func (fa *funcAnalysis) deref(r flow.Loc, s *state) val {
	v := s.vals.Get(r)
	if !r.Weak() || !strings.HasSuffix(r.Path, "[]") {
		v = v.Union(s.vals.Get(flow.Loc{Root: r.Root, Path: r.Path + "[]"}))
	}
	return v
}

// usesOf returns the allocation sites a kernel, memcpy or memset node touches:
// pointers in its parameter struct (and through the kernel argument array),
// or its dst and src arguments.
func (fa *funcAnalysis) usesOf(c *cgocall.Call, s *state) []int {
	f := c.Func
	var out []int
	for _, a := range []hipapi.Arg{f.Dst, f.Src} {
		if e := c.Arg(a); e != nil {
			out = unionInts(out, fa.ev.Eval(e, s)[""].sites)
		}
	}
	p := c.Arg(f.Params)
	if p == nil {
		return out
	}
	var t tree
	if l, ok := fa.lc.Target(p); ok {
		t = s.vals.Subtree(l)
	} else {
		t = fa.ev.Eval(flow.StripConversions(fa.info, p), s)
	}
	for path, v := range t {
		if path == "" {
			continue
		}
		out = unionInts(out, v.sites)
		if strings.HasSuffix(path, "."+hipapi.KernelNodeArgsField) {
			for _, r1 := range v.refs {
				for _, r2 := range fa.deref(r1, s).refs {
					out = unionInts(out, fa.deref(r2, s).sites)
				}
			}
		}
	}
	return out
}

// goSite is the Go memory made at e.
func (fa *funcAnalysis) goSite(e ast.Expr, what goMemory) val {
	text := [...]string{goMake: "Go memory from make", goNew: "Go memory from new",
		goComposite: "a composite literal", goSliceLit: "a Go slice literal",
		goVariable: "the address of the Go variable " + types.ExprString(e)} // e is the variable's identifier
	return val{sites: []int{fa.site(e.Pos(), KindGo, text[what], "", 0)}}
}

// goPart is the Go memory among v's sites.
func (fa *funcAnalysis) goPart(v val) val {
	return val{sites: slices.DeleteFunc(slices.Clone(v.sites), func(i int) bool { return fa.sites[i].kind != KindGo })}
}

// callValue is what result i of call holds when it allocates (C.malloc, a
// function whose summary returns memory).
func (fa *funcAnalysis) callValue(call *ast.CallExpr, result int, s *state) (tree, bool) {
	if cgocall.IsCHeapAlloc(fa.info, call) {
		if result != 0 {
			return nil, true
		}
		name, _ := cgocall.CName(fa.info, call) // C.malloc(...) as written at tier 3 has no object
		return tree{"": {sites: []int{fa.site(call.Pos(), KindCHeap, "C."+name, "", 0)}}}, true
	}
	fn := fa.idx.Callee(call)
	rs, _ := fa.returns.Of(fn)
	if len(rs.Allocs) == 0 {
		return nil, false
	}
	t := tree{}
	for _, r := range rs.Allocs {
		if r.Result != result {
			continue
		}
		api := r.API
		if !strings.Contains(api, "(via ") {
			api = fmt.Sprintf("%s (via %s)", r.API, fn.Name())
		}
		// The helper's stream is not known here: under any capture its
		// stream-ordered allocation may be a graph allocation.
		kind := capturedKind(r.Kind, slices.Collect(maps.Values(s.capture))...)
		i := fa.site(call.Pos(), kind, api, fmt.Sprintf("%d%s", r.Result, r.Path), hipapi.FamilyOf(r.API))
		t.Add(r.Path, val{sites: []int{i}})
	}
	return t, true
}

// capture records that the stream named key (e at path, as the caller
// writes it) begins or ends capturing, and which parameter's stream it is.
func (fa *funcAnalysis) capture(s *state, key string, begin bool, e ast.Expr, path string) {
	bits, into := notCapturing, fa.endCands
	if begin {
		bits, into = capturing, fa.beginCands
	}
	flow.Put(&s.capture, key, bits)
	if p, ok := fa.paramOf(e, path, s); ok {
		into[p] = key
	}
}

// collectReturn records the allocations a return hands to the caller, and
// the parameters' streams it leaves capturing or not.
func (fa *funcAnalysis) collectReturn(ret *ast.ReturnStmt, s *state) {
	if fa.sig == nil || fa.fn.Decl == nil {
		return
	}
	// A capture wrapper leaves its stream capturing (or not) on every return.
	for p, key := range fa.beginCands {
		fa.captureAtReturn[p] |= s.captureBits(key)
	}
	for p, key := range fa.endCands {
		fa.captureAtReturn[p] |= s.captureBits(key)
	}
	trees := fa.ev.Returned(fa.sig, ret, s)
	for i, t := range trees {
		for path, v := range t {
			for _, si := range v.sites {
				site := fa.sites[si]
				if site.kind == KindGo || site.kind == KindUnknown {
					continue
				}
				fa.returned = flow.AppendNew(fa.returned, ReturnedAlloc{Result: i, Path: path, Kind: site.kind, API: site.api})
			}
		}
	}
}

// paramOf returns the parameter, not reassigned here, whose memory e (at
// path) is: p, p.f, or p.Getter() for a getter of p.f.
func (fa *funcAnalysis) paramOf(e ast.Expr, path string, s *state) (ParamPath, bool) {
	l, ok := argLoc(fa.pass, fa.lc, e, path)
	if !ok || fa.sig == nil || fa.fn.Decl == nil || len(s.vals.Subtree(l)) > 0 {
		return ParamPath{}, false
	}
	return flow.RefOf(fa.sig, l)
}

// free checks one free of e's memory at path, by a free node (node) or by
// hipFree/hipFreeAsync (name: the API or wrapper called): what it frees
// (HL3001, HL3002), whether it was freed before (HL3004); it records the
// free when the memory is a parameter's, and returns what it frees. label,
// when set, names the free node in HL3001 and HL3002 instead of name.
func (fa *funcAnalysis) free(call *ast.CallExpr, e ast.Expr, path, name, label string, node bool, fam hipapi.Family, s *state) val {
	v := fa.ev.At(e, path, s)
	p, isParam := fa.paramOf(e, path, s)
	switch {
	case !node && isParam:
		flow.Put(&s.paramFreed, p, true) // for the summary if freed on every return
	case node && isParam:
		fa.freedParams = flow.AppendNew(fa.freedParams, p)
	}
	if node {
		// A field the function's flow knows nothing of (the receiver's
		// p.ptr, allocated by another method): what it always holds.
		v = fa.fieldValue(v, e, path)
		v = fa.globalValue(v, e, path, s)
	}
	what := types.ExprString(e) + path
	if node {
		fa.checkKinds(call, what, v, cmp.Or(label, name), fam)
	}
	// Double frees: only a single graph allocation in a scalar location is
	// certainly the same memory both times.
	l, ok := fa.lc.Of(flow.StripConversions(fa.info, e))
	if len(v.sites) != 1 || ok && l.Weak() || fa.sites[v.sites[0]].kind.class() != graphClass {
		return v
	}
	i := v.sites[0]
	site := fa.sites[i]
	if first, ok := s.freed[i]; ok {
		// Freed on some paths only: report only a loop that frees
		// memory allocated before it again on the next iteration
		// (branches that free on either side are correlated too often).
		// (A fallthrough is no branch, flow.FallsThrough; a second loop
		// over the elements a first loop freed frees them all again,
		// flow.SameElements.)
		if (first.node || node) && (!first.maybe || fa.loopCarried(call.Pos(), site.pos) || flow.FallsThrough(fa.fn.Body, first.pos, call.Pos()) ||
			flow.SameElements(fa.info, fa.fn.Body, first.e, flow.StripConversions(fa.info, e))) {
			fa.record(DoubleFree, call.Pos(), call.End(),
				fmt.Sprintf("%s frees %s, which %s already freed: a graph allocation is freed once; remove one of the frees (the runtime returns %s or frees the memory twice)",
					name, what, first.name, hipapi.Twin("hipErrorInvalidValue", hipapi.FirstFamily(fam, site.fam))),
				[]diag.Related{{Pos: first.pos, Message: "first freed here"}, {Pos: site.pos, Message: "allocated here"}})
		}
		return v
	}
	flow.Put(&s.freed, i, freeRec{pos: call.Pos(), e: flow.StripConversions(fa.info, e), name: name, node: node})
	return v
}

// record keeps a finding of this walk, the first for its check and position.
func (fa *funcAnalysis) record(c diag.Check, pos, end token.Pos, msg string, related []diag.Related) {
	if !slices.ContainsFunc(fa.found, func(f finding) bool { return f.check.ID == c.ID && f.pos == pos }) {
		fa.found = append(fa.found, finding{c, pos, end, msg, related})
	}
}

// loopCarried reports whether a free at pos sits in a loop while the
// allocation at alloc is in no loop: every iteration frees the same memory.
// (An allocation in a loop stands for many, which a later loop may free one
// by one.)
func (fa *funcAnalysis) loopCarried(pos, alloc token.Pos) bool {
	return flow.InRanges(pos, fa.loops) && !flow.InRanges(alloc, fa.loops)
}

// checkKinds reports a free node on memory that is not a graph allocation.
func (fa *funcAnalysis) checkKinds(call *ast.CallExpr, what string, v val, name string, fam hipapi.Family) {
	if fa.candidates {
		// Candidate mode: every free node, whatever it frees.
		related := diag.RelatedEach(v.sites, func(i int) diag.Related {
			return diag.Related{Pos: fa.sites[i].pos, Message: "allocated here by " + fa.sites[i].api}
		})
		fa.record(NotGraphMemory, call.Pos(), call.End(), fmt.Sprintf("%s frees %s", name, what), related)
		return
	}
	for _, i := range v.sites {
		site := fa.sites[i]
		f := hipapi.FirstFamily(fam, site.fam)
		related := []diag.Related{{Pos: site.pos, Message: "allocated here"}}
		switch {
		case site.kind.class() == notGraphClass:
			fa.record(NotGraphMemory, call.Pos(), call.End(),
				fmt.Sprintf("%s frees %s, which is %s from %s, not a graph allocation: a free node accepts only params.dptr of %s or memory allocated by %s during stream capture, and the runtime returns %s (ROCm 5.6.1 accepted it, earlier releases crashed); %s",
					name, what, site.kind.info().memory, site.api, hipapi.Twin("hipGraphAddMemAllocNode", f),
					hipapi.Twin("hipMallocAsync", f), hipapi.Twin("hipErrorInvalidValue", f), site.kind.releaseAdvice(f)),
				related)
		case site.kind.class() == streamClass:
			fa.record(StreamOrderedOutsideCapture, call.Pos(), call.End(),
				fmt.Sprintf("%s frees %s, which %s allocated outside stream capture: HIP 5.6 accepted this, but CUDA and current HIP reject it with %s; free it with %s on a stream, or allocate it with %s (or with %s between %s and its end capture)",
					name, what, site.api, hipapi.Twin("hipErrorInvalidValue", f), hipapi.Twin("hipFreeAsync", f),
					hipapi.Twin("hipGraphAddMemAllocNode", f), hipapi.Twin("hipMallocAsync", f), hipapi.Twin("hipStreamBeginCapture", f)),
				related)
		}
	}
}

// releaseAdvice says how to free memory of kind k instead (names in family f).
func (k Kind) releaseAdvice(f hipapi.Family) string {
	if i := k.info(); i.free != "" {
		return fmt.Sprintf(i.advice, hipapi.Twin(i.free, f))
	} else if i.advice != "" {
		return i.advice
	}
	return "free it with the matching free call"
}

// checkDependencies reports free nodes that are not ordered after every node
// using the memory they free (HL3003).
func (fa *funcAnalysis) checkDependencies() {
	if fa.edgesUnknown {
		return
	}
	for _, fr := range fa.nodes.List {
		if len(fr.frees) == 0 { // not a free node, or one freeing nothing known
			continue
		}
		ancestors, known := fa.ancestors(fr)
		if !known {
			continue
		}
		var missing []*nodeSite
		for ui, user := range fa.nodes.List { // users: the nodes with uses (kernel, memcpy, memset)
			if !ancestors[ui] && fa.sharesGraphMemory(fr, user) {
				missing = append(missing, user)
			}
		}
		if len(missing) == 0 {
			continue
		}
		user := missing[0]
		kind := nodeKinds[user.call.Func.Role]
		msg := fmt.Sprintf("free node for %s does not depend on the %s node (%s) that uses the memory: the graph may free it while that node still runs; add the %s node to the free node's dependencies",
			fr.ptr, kind, user.call.Func.Name, kind)
		if ua, ok := fa.ancestors(user); ok && ua[fr.id] {
			msg = fmt.Sprintf("the %s node (%s) uses %s after the free node that frees it; make the free node depend on the %s node instead",
				kind, user.call.Func.Name, fr.ptr, kind)
		}
		if len(missing) > 1 {
			msg += fmt.Sprintf(" (and %d more nodes using it)", len(missing)-1)
		}
		related := diag.RelatedEach(missing, func(u *nodeSite) diag.Related {
			return diag.Related{Pos: u.call.Pos(), Message: fmt.Sprintf("%s node using the memory", nodeKinds[u.call.Func.Role])}
		})
		fa.record(MissingDependency, fr.call.Pos(), fr.call.End(), msg, related)
	}
}

// nodeKinds names the nodes that use memory, for messages.
var nodeKinds = map[hipapi.Role]string{hipapi.GraphKernelNode: "kernel", hipapi.GraphCopyNode: "memcpy", hipapi.GraphMemsetNode: "memset"}

func (fa *funcAnalysis) sharesGraphMemory(fr, user *nodeSite) bool {
	for i := range fr.frees {
		if user.uses[i] && fa.sites[i].kind.class() == graphClass {
			return true
		}
	}
	return false
}

// ancestors returns the nodes n depends on, directly or transitively;
// known is false when some dependency along the way is unknown.
func (fa *funcAnalysis) ancestors(n *nodeSite) (map[int]bool, bool) {
	return reachable(n.id, func(i int) ([]int, bool) {
		cur := fa.nodes.List[i]
		return slices.Collect(maps.Keys(cur.deps)), !cur.depsUnknown
	})
}
