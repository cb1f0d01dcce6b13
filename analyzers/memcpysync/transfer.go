package memcpysync

import (
	"cmp"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"github.com/hiplint/hiplint/internal/cgocall"
	"github.com/hiplint/hiplint/internal/flow"
	"github.com/hiplint/hiplint/internal/hipapi"
)

// copySite is one copy call, or one copy a wrapper call issues.
type copySite struct {
	pos   token.Pos
	desc  string // "C.hipMemcpy" or "copyInto (C.hipMemcpy)"
	api   string // the runtime function
	async bool   // an explicit async form: HL1002
}

type funcAnalysis struct {
	*checker
	fn      flow.Func
	sig     *types.Signature
	ptrs    flow.Pointers
	effects flow.Effects[*state] // each node's calls and host reads, in evaluation order
	sites   flow.Sites[copySite]
	// prov: the views of memory the function makes (so that views made
	// before a copy are destinations too), its host memory, its kernel
	// argument arrays, and the streams its local handles copy (h :=
	// s.handle()).
	// ownLit: the closure being run here that is also a function of its
	// own (a deferred closure at an exit, a stored closure at its call):
	// what it copies and reads itself is its own analysis's finding, not
	// reported again here.
	ownLit *ast.FuncLit
	// joins: the waits of the function for goroutines it started.
	joins      []flow.Join
	prov       *flow.Provenance
	queues     flow.StreamQueues
	quietReads bool // the device read being checked is not one for the summary
	// seen is what the walk over the final solution saw
	// (flow.ReplayExits): nil while solving, set only for that walk
	// (analyzeFunc), and for an in-place closure only for its own final
	// walk (closure). The transfer functions note into it what the summary and the findings
	// are made of (host and device reads of the caller's memory, unordered
	// reads, the states at returns) but never read it: the fixpoint does
	// not depend on it.
	seen *observed
}

// observed is what the reporting pass saw of a function: its summary,
// collected at its returns, and its findings.
type observed struct {
	exit    *state // the join of the states at its returns; nil: none
	copies  []ParamCopy
	copySet map[ParamCopy]bool // copies, as a set
	// resultCopies: the copies into returned memory, each with the
	// returns it is pending at; valueReturns: for each result, the
	// returns that give it a value (not a nil literal). A copy into a
	// result is the summary's only when it is pending at every return
	// that gives that result a value (resultSummary): a function that
	// copies device to device on one branch and uploads from the host on
	// another (ToGPU of a tensor on the GPU or on the CPU) hands its
	// caller no pending copy it can name.
	resultCopies map[ParamCopy]map[token.Pos]bool
	valueReturns map[int]map[token.Pos]bool
	// recordedOn: the queue each event was recorded on (a zero Queue
	// when it was recorded on several); resultEvOps: the records on
	// returned events, each with the returns it is made at
	// (resultEventOps).
	recordedOn  map[flow.Loc]flow.Queue
	resultEvOps map[EventOp]map[token.Pos]bool
	readParams  []flow.Ref
	devReads    []DeviceRead
	findings    []finding
}

func newFuncAnalysis(c *checker, fn flow.Func) *funcAnalysis {
	fa := &funcAnalysis{checker: c, fn: fn, sig: fn.Signature(c.info)}
	fa.ptrs = flow.Pointers{Locator: flow.Locator{Info: c.info, Index: flow.ElementsAsWritten(c.info)}}
	fa.ptrs.Call = func(call *ast.CallExpr) (flow.Loc, bool) { return flow.GetterLoc(c.pass, &fa.ptrs, call) }
	fa.effects = flow.Effects[*state]{Index: c.idx, Ranged: c.idx.RangeOperands(fn.Body),
		Lit: fa.closure, Runtime: fa.runtimeCall, C: fa.cCall, Other: fa.summarizedCall, Read: fa.read, Stored: fa.runOwnLit}
	// Stream locals, and at tier 3 (cgo failed, "C" a fake package) the
	// locals of a C type, which have no type there: h := s.handle() names
	// the stream s.h either way.
	fa.prov = flow.ScanProvenance(c.idx, fa.ptrs, fn.Body, func(l flow.Loc) bool { return cgocall.IsStreamType(l.Root.Type()) || flow.Untyped(l.Root.Type()) })
	fa.joins = flow.Joins(c.info, fn.Body)
	fa.queues = flow.StreamQueues{Ptrs: fa.ptrs, Prov: fa.prov, Flags: c.streamFlags, LibStreams: c.libStreams, Sig: fa.sig}
	return fa
}

// analyzeFunc solves fn with the summaries known so far, then walks the
// solution once more (flow.ReplayExits) to see its findings and the reads
// its summary lists, and at its exits (each return and the end of the
// body) what it leaves its caller.
func (c *checker) analyzeFunc(fn flow.Func) *funcAnalysis {
	return c.analyzeAfter(fn, nil, nil)
}

// analyzeAfter is analyzeFunc on the state that the functions before, which
// run before fn in the program (initorder.go), leave: their summaries are
// applied at fn's entry. With stop, what the function leaves is its state
// before each node stop matches (TestMain's m.Run()), not at its exits.
func (c *checker) analyzeAfter(fn flow.Func, before []earlier, stop func(ast.Node) bool) *funcAnalysis {
	fa := newFuncAnalysis(c, fn)
	// Over budget (flow.Budget): no findings, an empty summary, and a note.
	if !c.budget.Start(fn) {
		fa.seen = &observed{}
		return fa
	}
	g := c.idx.CFG(fn.Body)
	p := fa.problem()
	p.Entry = &state{device: flow.Entry} // maps made on first write (flow.Put)
	for _, r := range before {
		fa.applySum(r.call, r.fn, r.sum, p.Entry)
	}
	in := flow.Solve(g, p)
	fa.seen = &observed{}
	if c.budget.Over() {
		return fa
	}
	if stop != nil {
		flow.ReplayExits(fa.info, g, in.Last(), p, func(n ast.Node, s *state) {
			if stop(n) {
				fa.atExit(cloneState(s), nil)
			}
		}, nil)
		return fa
	}
	defers := flow.FuncDeferrals(c.pass, fn)
	var rets map[token.Pos]*ast.ReturnStmt // by position, for what each hands back
	if fa.sig != nil && fa.sig.Results().Len() > 0 {
		rets = map[token.Pos]*ast.ReturnStmt{}
		for _, r := range flow.ReturnStmts(fn.Body) {
			rets[r.Pos()] = r
		}
	}
	flow.ReplayExitsAt(fa.info, g, in.Last(), p, func(ast.Node, *state) {}, func(at token.Pos, s *state) {
		fa.runDefers(fn.Body, defers, at, s)
		fa.atExit(s, rets[at])
	})
	return fa
}

// runDefers runs, at an exit, the calls the function deferred before it,
// last first, then a test's Cleanup closures (flow.DefersAt): a deferred
// closure on the function's variables (its reads
// are checked against the copies still in flight there), a deferred runtime
// call or wrapper (defer C.hipDeviceSynchronize(), defer s.Synchronize())
// with its summary. Their arguments were evaluated at the defer statement
// (transfer). A call deferred on some paths only (in a branch or a loop) is
// checked for its reads but orders nothing: it runs on a copy of the state.
// Only the reporting walk runs them: nothing that follows an exit depends
// on them but the findings and the summary.
func (fa *funcAnalysis) runDefers(body *ast.BlockStmt, defers []flow.Deferral, at token.Pos, s *state) {
	flow.RunDeferred(body, defers, at, s, cloneState, fa.idx.IsWrapper, fa.runOwnLit, func(call *ast.CallExpr, s *state) {
		if c := fa.idx.Match(call); c != nil {
			fa.runtimeCall(c, s)
		} else {
			fa.summarizedCall(call, s)
		}
	})
}

func (fa *funcAnalysis) problem() flow.Problem[*state] {
	return flow.Problem[*state]{Clone: cloneState, Join: joinState, Equal: equalState, Transfer: fa.transfer, Branch: fa.branch,
		Budget: fa.budget, Size: stateSize}
}

func (fa *funcAnalysis) transfer(n ast.Node, s *state) *state {
	if len(fa.joins) > 0 {
		fa.join(n, s)
	}
	switch n := n.(type) {
	case *ast.GoStmt:
		fa.goStmt(n, s)
	case *ast.DeferStmt:
		// The deferred call's arguments are evaluated here; the call runs
		// at exit (runDefers).
		if fa.idx.Match(n.Call) == nil {
			for _, arg := range n.Call.Args {
				fa.effects.Walk(arg, s)
			}
		}
	case *ast.ValueSpec, *ast.AssignStmt:
		fa.assignAll(n, s)
	default:
		fa.effects.Walk(n, s)
	}
	return s
}

// assignAll handles an assignment or declaration: its right-hand sides are
// evaluated, then stored.
func (fa *funcAnalysis) assignAll(n ast.Node, s *state) {
	lhs, rhs, _ := flow.Sides(n)
	for _, r := range rhs {
		fa.effects.Walk(r, s)
	}
	if as, ok := n.(*ast.AssignStmt); ok && as.Tok != token.ASSIGN && as.Tok != token.DEFINE {
		for _, l := range lhs {
			fa.effects.Walk(l, s) // x[i] += 1 reads x[i]
		}
	}
	for i, l := range lhs {
		var r ast.Expr
		var res flow.Loc // the call result stored in l, when a summary copies into it
		switch {
		case len(lhs) == len(rhs):
			r = rhs[i]
			if call, ok := flow.StripConversions(fa.info, r).(*ast.CallExpr); ok {
				res, _ = fa.results.lookup(call, 0)
			}
		case len(rhs) == 1: // t, err := clone(src)
			if call, ok := ast.Unparen(rhs[0]).(*ast.CallExpr); ok {
				res, _ = fa.results.lookup(call, i)
			}
		}
		fa.assign(l, r, res, s)
	}
	s.status = s.status.Assign(fa.info, lhs, rhs, fa.sitesIn)
}

// read handles a host read of the memory x points into, at an index
// expression, a dereference or a range loop.
func (fa *funcAnalysis) read(x ast.Expr, at ast.Node, s *state) {
	what := "this index expression"
	if _, star := at.(*ast.StarExpr); at == x {
		what = "this range loop"
	} else if star {
		what = "this dereference"
	}
	fa.hostRead(x, at, what, false, s)
}

// branch drops, on the branch where a status says the call failed
// (err != nil, r != 0), the copies that call issued: a copy that returned an
// error is not in flight.
func (fa *funcAnalysis) branch(cond ast.Expr, taken bool, s *state) *state {
	for _, i := range s.status.FailedSites(fa.info, cond, taken, fa.sitesIn) {
		s.copies.Delete(i)
	}
	return s
}

// closure runs a closure that runs in place (ctx.Do(func() error {...}))
// here, on this function's variables: it walks its body from s, with its
// own control flow, and leaves in s the state at its normal exits. Only the
// closure's last walk, at its fixpoint, belongs to the reporting pass.
// Other closures are functions of their own; cgo wrappers are matched at
// their call.
func (fa *funcAnalysis) closure(lit *ast.FuncLit, s *state) {
	if fa.idx.InPlace(lit) {
		fa.runClosure(lit, s)
	}
}

// join runs, before node n, the goroutines that a wait in n joins
// (flow.Joins: wg.Wait() after go func() { defer wg.Done(); ... }(), <-done
// after go func() { done <- ... }()): what they copied or synchronized has
// happened when the wait returns. They run quietly, on this function's
// variables: their own reads are the findings of their own analysis, and
// the device they leave current is their thread's, not this one's.
func (fa *funcAnalysis) join(n ast.Node, s *state) {
	for _, j := range fa.joins {
		if n.Pos() > j.At.Pos() || j.At.End() > n.End() {
			continue
		}
		for _, lit := range j.Gos {
			outer, dev := fa.seen, s.device
			fa.seen = nil
			out, ok := flow.ClosureExits(fa.idx, lit, s, fa.problem(), nil)
			fa.seen = outer
			if ok {
				*s = *out
			}
			s.device = dev
		}
	}
}

// runOwnLit runs a closure that is also a function of its own (ownLit).
func (fa *funcAnalysis) runOwnLit(lit *ast.FuncLit, s *state) {
	outer := fa.ownLit
	fa.ownLit = lit
	fa.runClosure(lit, s)
	fa.ownLit = outer
}

// runClosure walks lit's body from s, on this function's variables (closure).
func (fa *funcAnalysis) runClosure(lit *ast.FuncLit, s *state) {
	outer := fa.seen
	out, ok := flow.ClosureExits(fa.idx, lit, s, fa.problem(), func(final bool) {
		fa.seen = nil
		if final {
			fa.seen = outer
		}
	})
	fa.seen = outer
	if ok {
		*s = *out
	}
}

// hostRead handles a host access to the memory e points into.
func (fa *funcAnalysis) hostRead(e ast.Expr, at ast.Node, what string, deep bool, s *state) {
	l, ok := fa.ptrs.Of(e)
	if !ok {
		return
	}
	fa.deviceRead(l, deep, at, flow.Queue{}, what, s)
	fa.sameElementsRead(e, l, deep, at, flow.Queue{}, what, s)
}

// sameElementsRead handles a read of e (at l), on the host or by work on
// q, of the part of the elements (cp.samePart) a loop over every element of a slice copied into:
// read by a later loop over that slice (its variable is another
// variable) or indexed after it (flow.SameElements). Only the reporting
// pass looks.
func (fa *funcAnalysis) sameElementsRead(e ast.Expr, l flow.Loc, deep bool, at ast.Node, q flow.Queue, what string, s *state) {
	if fa.seen == nil || e == nil {
		return
	}
	for _, cp := range fa.pendingCopies(s) {
		if fa.live(cp) && cp.dst != nil && !cp.has(l, deep) && !fa.ordered(cp, q) && cp.samePart(l) &&
			flow.SameElements(fa.info, fa.fn.Body, cp.dst, flow.StripConversions(fa.info, e)) {
			fa.found(cp, at, at, q, l, what, s)
		}
	}
}

// deviceRead handles a read of the memory at l by work queued on q, or on
// the host when q is the zero Queue (OnHost: no runtime queue is).
func (fa *funcAnalysis) deviceRead(l flow.Loc, deep bool, at ast.Node, q flow.Queue, what string, s *state) {
	if q.Kind != flow.OnHost {
		fa.noteDeviceRead(l, q, s)
	} else if ref, ok := flow.RefOf(fa.sig, l); ok && fa.seen != nil && !s.synced {
		fa.seen.readParams = flow.AppendNew(fa.seen.readParams, ref)
	}
	for _, cp := range fa.pendingCopies(s) {
		if fa.live(cp) && cp.has(l, deep) && !fa.ordered(cp, q) {
			fa.found(cp, at, at, q, l, what, s)
		}
	}
	// A read inside an element of a container (outs[i].ptr), or of a
	// range loop's variable, reads what is stored into its elements (t of
	// outs = append(outs, t)); so does a read of a view of one (head :=
	// unsafe.Slice(..., dsts[0])). Only the reporting pass looks.
	if fa.seen == nil || s.copies.Len() == 0 {
		return
	}
	for _, a := range fa.prov.Aliases.Of(l) {
		for _, el := range fa.elementLocs(a) {
			for _, cp := range fa.pendingCopies(s) {
				if fa.live(cp) && !cp.has(l, deep) && cp.has(el, deep) && !fa.ordered(cp, q) {
					fa.found(cp, at, at, q, l, what, s)
				}
			}
		}
	}
}

// samePart reports whether a read at l, inside another variable that
// names the same element as the copy's destination, reads the part of it
// the copy wrote: their paths inside the element overlap (dst.ptr and
// dst, or dst.ptr; not dst.ptr and dst.n).
func (cp *pending) samePart(l flow.Loc) bool {
	under := func(a, b string) bool { // a is b or inside it
		return strings.HasPrefix(a, b) && (len(a) == len(b) || a[len(b)] == '.' || a[len(b)] == '[')
	}
	for _, d := range cp.dsts {
		if under(d.Path, l.Path) || under(l.Path, d.Path) {
			return true
		}
	}
	return false
}

// elementLocs returns the locations a read at l inside a container's
// element (or of a range loop's variable) reads: those of the values the
// package stores into the container's elements (flow.Sources.ElemValuesAt),
// with l's path inside the element.
func (fa *funcAnalysis) elementLocs(l flow.Loc) []flow.Loc {
	if fa.srcs == nil {
		fa.srcs = fa.idx.SharedSources()
	}
	vals, rest, ok := fa.srcs.ElemValuesAt(fa.info, l)
	if !ok {
		return nil
	}
	var out []flow.Loc
	for _, v := range vals {
		if v.Expr == nil {
			continue
		}
		if vl, ok := fa.ptrs.Of(v.Expr); ok {
			if vl.Path += rest; vl != l {
				out = flow.AppendNew(out, vl)
			}
		}
	}
	return out
}

// live reports whether a read of cp's destination is checked: in candidate
// mode a synchronized copy still counts.
func (fa *funcAnalysis) live(cp *pending) bool {
	return (!cp.done || fa.candidates) && !cp.byKind
}

// pendingCopies returns the copies s tracks, by site.
func (fa *funcAnalysis) pendingCopies(s *state) []*pending {
	// A slice of the map's size, not grown by doubling from an iterator
	// (slices.SortedFunc): it is asked at every runtime call.
	m := s.copies.Map()
	if len(m) == 0 {
		return nil
	}
	out := make([]*pending, 0, len(m))
	for _, p := range m {
		out = append(out, p)
	}
	slices.SortFunc(out, func(p, q *pending) int { return cmp.Compare(p.site, q.site) })
	return out
}

// ordered reports whether work on q runs after copy cp: the host has
// waited for it, q was made to wait for it through an event, or stream
// order says so (flow.StreamOrder).
func (fa *funcAnalysis) ordered(cp *pending, q flow.Queue) bool {
	if fa.candidates {
		return false
	}
	return cp.done || q.Kind != flow.OnHost && (slices.Contains(cp.waited, q.Key()) || fa.order.After(cp.queue, cp.peer, q))
}

func (fa *funcAnalysis) runtimeCall(c *cgocall.Call, s *state) {
	f := c.Func
	switch f.Role {
	case hipapi.SetDevice:
		s.device = flow.SymAt(fa.ptrs.Locator, fa.sig, c.Arg(f.Device))
	case hipapi.DeviceSync:
		fa.deviceSync(s)
	case hipapi.StreamSync:
		fa.streamSync(fa.queueOf(c.Arg(f.Stream), s), s)
	case hipapi.EventRecord, hipapi.StreamWaitEvent, hipapi.EventSync:
		if ev, ok := fa.ptrs.Locator.Of(flow.StripConversions(fa.info, c.Arg(f.Event))); ok {
			op := map[hipapi.Role]EventOpKind{hipapi.EventRecord: Record, hipapi.StreamWaitEvent: Wait, hipapi.EventSync: SyncEvent}[f.Role]
			fa.eventOp(op, ev, fa.queueOf(c.Arg(f.Stream), s), s) // a sync's queue (no stream: the null one) goes unused
		}
	case hipapi.StreamCreate: // into &h
		for _, l := range fa.ptrs.Locator.Addressed([]ast.Expr{c.Arg(f.Out)}) {
			s.streams.Set(l, flow.CreatedQueue(fa.info, c, l, s.device))
		}
	case hipapi.Copy:
		fa.copyCall(c, s)
	case hipapi.Launch:
		if args := c.Arg(f.KernelArgs); args != nil {
			q := fa.queueOf(c.Arg(f.Stream), s)
			for _, m := range fa.prov.Mentions(args) {
				fa.deviceRead(m.Loc, true, c.Expr, q, "C."+f.Name, s)
			}
		}
	}
}

func (fa *funcAnalysis) deviceSync(s *state) {
	for k, cp := range s.copies.Map() {
		if !cp.done && cp.queue.Device.Same(s.device) {
			fa.complete(s, k)
		}
	}
	if s.device == flow.Entry {
		s.synced = true
	}
}

func (fa *funcAnalysis) streamSync(q flow.Queue, s *state) {
	for k, cp := range s.copies.Map() {
		if !cp.done && (slices.Contains(cp.waited, q.Key()) || fa.order.Waits(cp.queue, cp.peer, q)) {
			fa.complete(s, k)
		}
	}
	if q.Kind == flow.OnStream {
		s.syncedStreams.Set(q.Stream, true)
	}
}

// queueOf returns where work given stream expression e runs.
func (fa *funcAnalysis) queueOf(e ast.Expr, s *state) flow.Queue {
	return fa.queues.Of(e, s.device, s.streams.Map())
}

func (fa *funcAnalysis) copyCall(c *cgocall.Call, s *state) {
	f := c.Func
	dst, src := c.Arg(f.Dst), c.Arg(f.Src)
	q := flow.Queue{Kind: flow.OnNull, Device: s.device}
	if f.Stream != 0 {
		q = fa.queueOf(c.Arg(f.Stream), s)
	}
	byKind, kind, kmap, d2d, d2h := fa.directions(c, s)
	// The copy reads its source on q. A device-to-device copy's source read
	// is left out of the summary (DeviceReads): wrappers are mostly copies,
	// and the reads their callers missed are downloads, launches and
	// library calls.
	if l, ok := fa.ptrs.Of(src); ok {
		fa.quietReads = d2d || fa.prov.IsHost(src) // a host source is read on the host, in the call
		fa.deviceRead(l, false, c.Expr, q, "C."+f.Name, s)
		fa.quietReads = false
	}
	async := strings.HasSuffix(f.Name, "Async")
	// A blocking device-to-host copy returns after everything ordered before it.
	if !async && d2h {
		for k, cp := range s.copies.Map() {
			if !cp.done && fa.ordered(cp, q) {
				fa.complete(s, k)
			}
		}
		if q.Kind == flow.OnNull && q.Device == flow.Entry {
			s.nullSynced = true // b.Download(out) orders its caller's null-stream copies
		}
	}
	if !d2d {
		return
	}
	dl, ok := fa.ptrs.Of(dst)
	if !ok {
		return
	}
	site := fa.site(c.Expr, 0, "C."+f.Name, f.Name, async)
	p := &pending{site: site, dsts: fa.prov.Aliases.Of(dl), dst: flow.StripConversions(fa.info, dst), queue: q, byKind: byKind, kind: kind, kmap: kmap}
	if f.Direction == hipapi.Peer {
		p.peer = flow.SymAt(fa.ptrs.Locator, fa.sig, c.Arg(f.DstDevice))
	}
	s.track(site, p)
}

func (fa *funcAnalysis) site(n ast.Node, i int, desc, api string, async bool) int {
	return fa.sites.Add(n, i, func() copySite { return copySite{pos: n.Pos(), desc: desc, api: api, async: async} })
}

// sitesIn returns the copy sites of the calls in e.
func (fa *funcAnalysis) sitesIn(e ast.Expr) []int { return fa.sites.In(fa.info, e) }

// directions says whether c may copy device to device without the host
// waiting, byKind when only if the caller's kind at kind says so, and
// whether it surely copies device to host (hipapi.Func.CopyDirections).
func (fa *funcAnalysis) directions(c *cgocall.Call, s *state) (byKind bool, kind flow.Ref, kmap KindMap, d2d, d2h bool) {
	f := c.Func
	dstHost, srcHost := fa.prov.IsHost(c.Arg(f.Dst)), fa.prov.IsHost(c.Arg(f.Src))
	ks, known := fa.kindSet(c.Arg(f.Kind), s)
	d2d, d2h = f.CopyDirections(uint8(ks), known, dstHost, srcHost)
	if f.Direction == hipapi.FromKind && !known && !dstHost && !srcHost {
		kind, kmap, byKind = fa.kindRef(c.Arg(f.Kind), 0)
	}
	return byKind, kind, kmap, d2d || byKind, d2h
}

// kindSet returns the copy kinds e may hold: a constant, a variable
// assigned kinds on this path, a helper's translation of such a value
// (kindMapCall), or the result of a helper of the package that returns one
// of a few constants (flow.Index.ResultSmallSet).
func (fa *funcAnalysis) kindSet(e ast.Expr, s *state) (flow.SmallSet, bool) {
	if ks, ok := flow.SmallSetAt(fa.info, e, s.kinds.Map()); ok || e == nil {
		return ks, ok
	}
	call, ok := ast.Unparen(flow.StripConversions(fa.info, e)).(*ast.CallExpr)
	if !ok {
		return 0, false
	}
	fn := flow.Callee(fa.info, call)
	if fn == nil {
		return 0, false
	}
	all, allOK := fa.idx.ResultSmallSet(fn)
	if arg, m, ok := fa.kindMapCall(call); ok {
		if in, ok := fa.kindSet(arg, s); ok {
			return m.apply(in), true
		}
		if _, _, ok := fa.kindRef(arg, 0); ok && allOK && all&(1<<hipapi.KindDeviceToDevice|1<<hipapi.KindDefault) != 0 {
			// The caller's value decides: kindRef carries the map.
			return 0, false
		}
	}
	return all, allOK
}

// kindRef names the caller's memory that the copy kind e is read from,
// and how the helpers e passes it through translate it (kindMapCall).
func (fa *funcAnalysis) kindRef(e ast.Expr, depth int) (flow.Ref, KindMap, bool) {
	if arg, m, ok := fa.kindMapCall(e); ok && depth < 4 {
		ref, inner, ok := fa.kindRef(arg, depth+1)
		return ref, inner.then(m), ok
	}
	sym := flow.SymAt(fa.ptrs.Locator, fa.sig, e)
	return sym.Ref, KindMap{}, sym.Of == flow.ParamSym
}

// assign handles lhs = rhs: kinds held in variables, aliases of copy
// destinations, and copied stream handles. res, when its Root is set, is
// the call result stored (callResults): the copies into it, or into
// memory inside it, are copies into lhs from here on.
func (fa *funcAnalysis) assign(lhs, rhs ast.Expr, res flow.Loc, s *state) {
	ll, ok := fa.ptrs.Locator.Of(lhs)
	if !ok || flow.IsCgoTemp(ll) {
		return
	}
	if ll.Path == "" {
		if ks, ok := fa.kindSet(rhs, s); ok {
			s.kinds.Set(ll.Root, ks)
		} else {
			s.kinds.Delete(ll.Root)
		}
	}
	rl, rok := fa.ptrs.Of(rhs) // none for nil
	overwritten := func(d flow.Loc) bool { return d.Under(ll) }
	inResult := func(d flow.Loc) bool { return res.Root != nil && d.Under(res) }
	for k, cp := range s.copies.Map() {
		if len(cp.dsts) > 0 && !slices.ContainsFunc(cp.dsts, overwritten) && !(rok && cp.has(rl, false)) &&
			!slices.ContainsFunc(cp.dsts, inResult) {
			continue // unchanged (and shared: see edit)
		}
		cp = s.edit(k)
		cp.dsts = slices.DeleteFunc(cp.dsts, overwritten)
		if rok && cp.has(rl, false) {
			cp.dsts = append(cp.dsts, ll)
		}
		for _, d := range cp.dsts {
			if to, ok := reroot(d, res, ll); ok {
				cp.dsts = flow.AppendNew(cp.dsts, fa.prov.Aliases.Of(to)...)
			}
		}
		if len(cp.dsts) == 0 {
			s.copies.Delete(k)
		}
	}
	if res.Root != nil {
		for ev, sites := range s.events.Map() {
			if to, ok := reroot(ev, res, ll); ok {
				s.events.Set(to, sites)
			}
		}
	}
	if q, ok := s.streams.Get(rl); ok && rok {
		q.Stream = ll
		s.streams.Set(ll, q)
		return
	}
	s.streams.Delete(ll)
}
