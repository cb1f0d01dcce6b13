package memcpysync

import (
	"cmp"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hiplint/hiplint/internal/cgocall"
	"github.com/hiplint/hiplint/internal/flow"
	"github.com/hiplint/hiplint/internal/hipapi"
)

// summarizedCall applies the summaries of a called Go function. A call
// through a field that always holds one function applies its summaries but
// what names the receiver bound where the method value was stored
// (Ref.Arg has no receiver for it).
func (fa *funcAnalysis) summarizedCall(call *ast.CallExpr, s *state) {
	// copy(dst, view) and append(out, view...) read the view on the host.
	if b := flow.BuiltinName(fa.info, call); len(call.Args) == 2 && (b == "copy" || b == "append" && call.Ellipsis.IsValid()) {
		fa.hostRead(call.Args[1], call, b, false, s)
	}
	fa.applySummary(call, fa.callee(call), s)
}

// applySummary applies what fn's summary says a call of it does.
func (fa *funcAnalysis) applySummary(call *ast.CallExpr, fn *types.Func, s *state) {
	if sum, ok := fa.sums.Of(fn); ok {
		fa.applySum(call, fn, sum, s)
	}
}

// applySum applies sum, what a call of fn does.
func (fa *funcAnalysis) applySum(call *ast.CallExpr, fn *types.Func, sum Summary, s *state) {
	fa.applyEventOps(call, fn, sum.EventOps, Wait, s)
	for _, r := range sum.DeviceReads {
		if e, l, ok := fa.ptrs.At(r.Ref, call); ok {
			if q, ok := fa.queues.Caller(call, fn, r.Stream, r.Device, s.device, s.streams.Map()); ok {
				fa.deviceRead(l, true, call, q, fn.Name(), s)
				fa.sameElementsRead(e, l, true, call, q, fn.Name(), s)
			}
		}
	}
	for _, r := range sum.Reads {
		if r.Path != "" {
			if _, l, ok := fa.ptrs.At(r, call); ok {
				fa.deviceRead(l, true, call, flow.Queue{}, fn.Name(), s)
			}
		} else if arg := fa.idx.ArgAt(call, r.Param); arg != nil {
			fa.hostRead(arg, call, fn.Name(), true, s)
		}
	}
	if sum.SyncDevice {
		fa.deviceSync(s)
	}
	if sum.SyncNull {
		fa.streamSync(flow.Queue{Kind: flow.OnNull, Device: s.device}, s)
		if s.device == flow.Entry {
			s.nullSynced = true
		}
	}
	for _, ref := range sum.SyncStreams {
		if q, ok := fa.queues.Arg(call, ref, s.device, s.streams.Map()); ok {
			fa.streamSync(q, s)
		}
	}
	fa.applyEventOps(call, fn, sum.EventOps, SyncEvent, s)
	for i, pc := range sum.Copies {
		fa.wrapperCopy(call, fn, i, pc, s)
	}
	fa.applyEventOps(call, fn, sum.EventOps, Record, s)
	if sum.SetsDevice != (flow.Sym{}) {
		s.device = sum.SetsDevice.At(fa.ptrs, fa.sig, call, s.device)
	}
}

// applyEventOps applies a called wrapper's event operations of one kind.
func (fa *funcAnalysis) applyEventOps(call *ast.CallExpr, fn *types.Func, ops []EventOp, kind EventOpKind, s *state) {
	for _, op := range ops {
		if op.Op != kind {
			continue
		}
		var ok bool
		var ev flow.Loc
		if op.Result {
			ev = fa.results.at(call, op.Event.Param)
			ev.Path += op.Event.Path
		} else if _, ev, ok = fa.ptrs.At(op.Event, call); !ok {
			// An event a call returns, used in place:
			// copyFenced(dst, src, s).Wait().
			arg := op.Event.Arg(fa.info, call)
			if arg == nil {
				continue
			}
			inner, isCall := flow.StripConversions(fa.info, arg).(*ast.CallExpr)
			if !isCall {
				continue
			}
			if ev, ok = fa.results.lookup(inner, 0); !ok {
				continue
			}
			ev.Path += op.Event.Path
		}
		if op.Op == SyncEvent {
			fa.syncEvent(ev, s)
		} else if q, ok := fa.queues.Caller(call, fn, op.Stream, flow.Sym{}, s.device, s.streams.Map()); ok {
			fa.eventOp(op.Op, ev, q, s)
		}
	}
}

// eventOp records, waits for or synchronizes the event at ev, and notes it
// for the summary when the caller can name the event and the stream (or
// the null stream of the device current on entry).
func (fa *funcAnalysis) eventOp(op EventOpKind, ev flow.Loc, q flow.Queue, s *state) {
	switch op {
	case Record: // the event completes after the copies ordered before work on q
		var sites []int
		for _, cp := range fa.pendingCopies(s) {
			if !cp.done && fa.ordered(cp, q) {
				sites = append(sites, cp.site)
			}
		}
		s.events.Set(ev, sites)
		if o := fa.seen; o != nil {
			if o.recordedOn == nil {
				o.recordedOn = map[flow.Loc]flow.Queue{}
			}
			if prev, ok := o.recordedOn[ev]; ok && prev.Key() != q.Key() {
				q = flow.Queue{}
			}
			o.recordedOn[ev] = q
		}
	case Wait: // work on q after this waits for the event
		for _, i := range s.events.Map()[ev] {
			if cp, ok := s.copies.Get(i); ok && !slices.Contains(cp.waited, q.Key()) {
				cp = s.edit(i)
				cp.waited = append(cp.waited, q.Key())
			}
		}
	case SyncEvent:
		fa.syncEvent(ev, s)
	}
	ref, ok := flow.RefOf(fa.sig, ev)
	if !ok {
		return
	}
	o := EventOp{Op: op, Event: ref}
	if st, dev := fa.queues.ForCaller(q); op != SyncEvent {
		if st.Of != flow.ParamStream && (st.Of != flow.NullStream || dev != (flow.Sym{})) {
			return // a stream the caller cannot see, or another device's null stream
		}
		o.Stream = st
	}
	s.evOps = flow.AppendNew(s.evOps, o)
}

// syncEvent: the host waited for the event.
func (fa *funcAnalysis) syncEvent(ev flow.Loc, s *state) {
	for _, i := range s.events.Map()[ev] {
		if cp, ok := s.copies.Get(i); ok && !cp.done {
			fa.complete(s, i)
		}
	}
}

// cCall handles a call of a C function that is not the runtime: one
// known to read host memory (cgocall.HostReads) reads it there; a library
// routine given device memory queues its work on the stream among its
// arguments, or on one the caller cannot see (a library handle's).
func (fa *funcAnalysis) cCall(call *ast.CallExpr, name string, args []ast.Expr, sig *types.Signature, s *state) {
	if reads := cgocall.HostReads(name); reads != nil {
		for _, i := range reads {
			if i < len(args) {
				fa.hostRead(args[i], call, "C."+name, false, s)
			}
		}
		return
	}
	if flow.SetsLibraryStream(name, sig) && len(args) == 2 {
		// cublasSetStream(h, s): h's routines run on s from here on.
		if l, ok := fa.queues.BindLibraryStream(args[0]); ok {
			s.streams.Set(l, fa.queueOf(args[1], s))
		}
		return
	}
	q, memory, _ := fa.queues.Library(name, sig, args, s.device, s.streams.Map())
	for _, i := range memory {
		if l, ok := fa.ptrs.Of(args[i]); ok {
			fa.deviceRead(l, true, call, q, "C."+name, s)
		}
	}
}

// noteDeviceRead records, in the reporting pass, that work on q reads the
// memory at l (or a view of it) that the caller passed.
func (fa *funcAnalysis) noteDeviceRead(l flow.Loc, q flow.Queue, s *state) {
	if fa.seen == nil || fa.quietReads || s.synced || fa.sig == nil {
		return
	}
	st, dev := fa.queues.ForCaller(q)
	for _, ref := range fa.prov.Aliases.MemoryRefs(fa.sig, l) {
		fa.seen.devReads = append(fa.seen.devReads, DeviceRead{Ref: ref, Stream: st, Device: dev})
	}
}

func (fa *funcAnalysis) wrapperCopy(call *ast.CallExpr, fn *types.Func, i int, pc ParamCopy, s *state) {
	var dstArg ast.Expr
	var dl flow.Loc
	var ok bool
	switch {
	case !pc.Global.IsZero():
		dl, ok = pc.Global.At(fn.Pkg(), call)
	case pc.Result:
		// A copy into what the call returns: its result, until the
		// caller stores it (assign).
		if call == nil || pc.Dst.Param < 0 {
			return
		}
		dl, ok = fa.results.at(call, pc.Dst.Param), true
		dl.Path += pc.Dst.Path
	default:
		dstArg, dl, ok = fa.ptrs.At(pc.Dst, call)
	}
	if !ok || dstArg != nil && !strings.Contains(pc.Dst.Path, ".") && fa.prov.IsHost(dstArg) {
		return
	}
	p := &pending{queue: flow.Queue{Kind: flow.OnNull, Device: pc.Device.At(fa.ptrs, fa.sig, call, s.device)}}
	if pc.ByKind {
		k := pc.Kind.Arg(fa.info, call)
		if k == nil {
			return
		}
		if ks, ok := fa.kindSet(k, s); ok {
			ks = pc.KindMap.apply(ks)
			if !ks.Has(hipapi.KindDeviceToDevice) && !ks.Has(hipapi.KindDefault) {
				return // no kind that reaches the wrapper copies device to device
			}
		} else if p.kind, p.kmap, p.byKind = fa.kindRef(k, 0); !p.byKind {
			return
		} else {
			p.kmap = p.kmap.then(pc.KindMap)
		}
	}
	switch pc.Stream.Of {
	case flow.PrivateStream:
		p.queue.Kind = flow.OnPrivate
	case flow.ParamStream:
		if q, ok := fa.queues.Arg(call, pc.Stream.Ref, s.device, s.streams.Map()); ok {
			p.queue = q
		} else {
			p.queue.Kind = flow.OnPrivate
		}
	}
	p.site = fa.site(call, i, fa.calleeName(fn)+" (C."+pc.API+")", pc.API, pc.Async)
	p.dsts = fa.prov.Aliases.Of(dl)
	if dstArg != nil {
		p.dst = flow.StripConversions(fa.info, dstArg)
	}
	if pc.Peer.Of != flow.CallerSym {
		p.peer = pc.Peer.At(fa.ptrs, fa.sig, call, s.device)
	}
	s.track(p.site, p)
}

// atExit records what the function leaves its caller on this return
// (ret; nil: the end of the body or no return).
func (fa *funcAnalysis) atExit(s *state, ret *ast.ReturnStmt) {
	o := fa.seen
	if fa.sig == nil {
		return
	}
	var returned []resultLoc // computed for the first pending copy
	returnedDone := false
	// What holds on every return: the join of their states (of which the
	// summary reads what the join keeps only when every path has it).
	if o.exit == nil {
		o.exit = cloneState(s)
	} else {
		o.exit = joinState(o.exit, s)
	}
	fa.noteValueReturns(ret)
	fa.noteResultEvents(s, ret)
	for _, cp := range fa.pendingCopies(s) {
		if cp.done {
			continue
		}
		site := fa.sites.List[cp.site]
		// A copy's summary names a stream the caller cannot see by no
		// flags; on a handle of this function's, with no device.
		st, dev := fa.queues.ForCaller(cp.queue)
		if st.Of > flow.PrivateStream {
			st.Of = flow.PrivateStream
			if cp.queue.Kind == flow.OnStream {
				dev = flow.Sym{}
			}
		}
		for _, d := range cp.dsts {
			pc := ParamCopy{ByKind: cp.byKind, Kind: cp.kind, KindMap: cp.kmap, API: site.api, Async: site.async, Peer: cp.peer.ForCaller(),
				Stream: st, Device: dev}
			// Memory it returns: the caller receives the copy with it.
			if !returnedDone {
				returned, returnedDone = fa.returnedLocs(ret), true
			}
			for _, r := range resultRefsOf(returned, d) {
				rc := pc
				rc.Dst, rc.Result = r, true
				if o.resultCopies == nil {
					o.resultCopies = map[ParamCopy]map[token.Pos]bool{}
				}
				if o.resultCopies[rc] == nil {
					o.resultCopies[rc] = map[token.Pos]bool{}
				}
				o.resultCopies[rc][ret.Pos()] = true
			}
			var ok bool
			if pc.Dst, ok = flow.RefOf(fa.sig, d); !ok {
				if pc.Global, ok = flow.GlobalRefOf(fa.pass.Pkg, fa.sig, d); !ok {
					continue
				}
			}
			o.addCopy(pc)
		}
	}
}

// noteResultEvents records, for the events ret returns, their record on
// the queue they were recorded on when the caller can name it (a stream
// it passed, the null stream of its device) and every copy pending here
// that work on that queue is ordered after was issued before the record:
// the caller applies the record after the function's copies.
func (fa *funcAnalysis) noteResultEvents(s *state, ret *ast.ReturnStmt) {
	o := fa.seen
	if ret == nil || len(o.recordedOn) == 0 || s.events.Len() == 0 {
		return
	}
	returned := fa.returnedLocs(ret)
	for ev, sites := range s.events.Map() {
		q, ok := o.recordedOn[ev]
		if !ok || q == (flow.Queue{}) {
			continue
		}
		refs := resultRefsOf(returned, ev)
		if len(refs) == 0 || slices.ContainsFunc(fa.pendingCopies(s), func(cp *pending) bool {
			return !cp.done && fa.ordered(cp, q) && !slices.Contains(sites, cp.site)
		}) {
			continue
		}
		st, dev := fa.queues.ForCaller(q)
		if st.Of != flow.ParamStream && (st.Of != flow.NullStream || dev != (flow.Sym{})) {
			continue
		}
		for _, r := range refs {
			op := EventOp{Op: Record, Event: r, Stream: st, Result: true}
			if o.resultEvOps == nil {
				o.resultEvOps = map[EventOp]map[token.Pos]bool{}
			}
			if o.resultEvOps[op] == nil {
				o.resultEvOps[op] = map[token.Pos]bool{}
			}
			o.resultEvOps[op][ret.Pos()] = true
		}
	}
}

// resultEventOps returns the records on returned events made at every
// return that gives their result a value.
func (o *observed) resultEventOps() []EventOp {
	var out []EventOp
	for op, at := range o.resultEvOps {
		if o.atEveryValueReturn(op.Event.Param, at) {
			out = append(out, op)
		}
	}
	return flow.SortedByString(out)
}

// noteValueReturns records, for each result, whether ret gives it a value
// other than nil or an empty literal (observed.valueReturns).
func (fa *funcAnalysis) noteValueReturns(ret *ast.ReturnStmt) {
	if ret == nil || fa.sig.Results().Len() == 0 {
		return
	}
	o := fa.seen
	if o.valueReturns == nil {
		o.valueReturns = map[int]map[token.Pos]bool{}
	}
	for i := range fa.sig.Results().Len() {
		if len(ret.Results) == fa.sig.Results().Len() && zeroValue(fa.info, ret.Results[i]) {
			continue
		}
		if o.valueReturns[i] == nil {
			o.valueReturns[i] = map[token.Pos]bool{}
		}
		o.valueReturns[i][ret.Pos()] = true
	}
}

// zeroValue reports whether e is nil or an empty composite literal
// (`return Snapshot{}, err`): the value an error return gives.
func zeroValue(info *types.Info, e ast.Expr) bool {
	if info.Types[e].IsNil() {
		return true
	}
	lit, ok := ast.Unparen(e).(*ast.CompositeLit)
	return ok && len(lit.Elts) == 0
}

// resultSummary returns the copies into returned memory pending at every
// return that gives their result a value.
func (o *observed) resultSummary() []ParamCopy {
	var out []ParamCopy
	for rc, at := range o.resultCopies {
		if o.atEveryValueReturn(rc.Dst.Param, at) && !o.copySet[rc] {
			out = append(out, rc)
		}
	}
	return out
}

// atEveryValueReturn reports whether at holds every return that gives
// result param a value.
func (o *observed) atEveryValueReturn(param int, at map[token.Pos]bool) bool {
	for pos := range o.valueReturns[param] {
		if !at[pos] {
			return false
		}
	}
	return true
}

// addCopy adds pc to the summary's copies, once (a function of thousands
// of returns lists each once).
func (o *observed) addCopy(pc ParamCopy) {
	if !o.copySet[pc] {
		if o.copySet == nil {
			o.copySet = map[ParamCopy]bool{}
		}
		o.copySet[pc] = true
		o.copies = append(o.copies, pc)
	}
}

// returnedLocs returns the locations return statement ret hands the caller
// (returnedAt): what its operands point into, and the results of
// calls whose summaries copy into them (return clone(src)).
func (fa *funcAnalysis) returnedLocs(ret *ast.ReturnStmt) []resultLoc {
	if ret == nil || fa.sig.Results().Len() == 0 {
		return nil
	}
	of := func(e ast.Expr) (flow.Loc, bool) {
		if l, ok := fa.ptrs.Of(e); ok {
			return l, true
		}
		if call, ok := flow.StripConversions(fa.info, e).(*ast.CallExpr); ok {
			return fa.results.lookup(call, 0)
		}
		return flow.Loc{}, false
	}
	return returnedAt(fa.info, fa.sig, ret, of, fa.results.lookup)
}

// summary returns the facts the function's returns support.
func (fa *funcAnalysis) summary() Summary {
	o := fa.seen
	slices.SortFunc(o.readParams, func(a, b flow.Ref) int { return cmp.Or(cmp.Compare(a.Param, b.Param), cmp.Compare(a.Path, b.Path)) })
	sum := Summary{Copies: flow.SortedByString(append(slices.Clip(o.copies), o.resultSummary()...)), Reads: o.readParams, DeviceReads: flow.SortedByString(o.devReads)}
	x := o.exit
	if x == nil {
		return sum
	}
	sum.SyncDevice, sum.SyncNull, sum.EventOps = x.synced, x.nullSynced && !x.synced, append(slices.Clip(x.evOps), o.resultEventOps()...)
	for l := range x.syncedStreams.Map() {
		if ref, ok := flow.RefOf(fa.sig, l); ok {
			sum.SyncStreams = append(sum.SyncStreams, ref)
		}
	}
	sum.SyncStreams = flow.SortedByString(sum.SyncStreams)
	// The device it leaves current, when its caller can name it and no
	// deferred switch (defer C.hipSetDevice(prev)) restores it.
	if d := x.device; (d.Of == flow.ConstSym || d.Of == flow.ParamSym) && !fa.defersSetDevice() {
		sum.SetsDevice = d
	}
	return sum
}

// defersSetDevice reports whether the function defers a device switch (or
// a call that switches devices).
func (fa *funcAnalysis) defersSetDevice() bool {
	for n := range ast.Preorder(fa.fn.Body) {
		d, ok := n.(*ast.DeferStmt)
		if ok && flow.FirstCall(d.Call, nil, func(call *ast.CallExpr) bool {
			if c := fa.idx.Match(call); c != nil {
				return c.Func.Role == hipapi.SetDevice
			}
			fn := fa.idx.Callee(call)
			sum, _ := fa.sums.Of(fn)
			return sum.SetsDevice != flow.Sym{} && fn.Origin() != fa.fn.Object(fa.info)
		}) != nil {
			return true
		}
	}
	return false
}

// goStmt reports goroutines that use a copy's destination while the copy
// may be in flight: they run concurrently with everything after the go
// statement, on whatever thread (and current device) the scheduler picks.
func (fa *funcAnalysis) goStmt(g *ast.GoStmt, s *state) {
	ms := fa.prov.Mentions(g.Call)
	syncAt := token.NoPos
	if lit, ok := ast.Unparen(g.Call.Fun).(*ast.FuncLit); ok {
		syncAt = fa.firstSync(lit.Body)
	}
	for _, cp := range fa.pendingCopies(s) {
		if !fa.live(cp) {
			continue
		}
		for _, m := range ms {
			if !cp.has(m.Loc, true) {
				continue
			}
			if !syncAt.IsValid() || syncAt >= m.Node.Pos() {
				fa.found(cp, m.Node, g, flow.Queue{}, m.Loc, goroutine, s)
			}
			break
		}
	}
}

// firstSync returns the position of the first synchronizing call in body.
func (fa *funcAnalysis) firstSync(body *ast.BlockStmt) token.Pos {
	call := flow.FirstCall(body, nil, func(call *ast.CallExpr) bool {
		if c := fa.idx.Match(call); c != nil {
			return c.Func.Role == hipapi.DeviceSync || c.Func.Role == hipapi.StreamSync || c.Func.Role == hipapi.EventSync
		}
		sum, _ := fa.sums.Of(fa.idx.Callee(call))
		return sum.SyncDevice || sum.SyncNull || len(sum.SyncStreams) > 0
	})
	if call == nil {
		return token.NoPos
	}
	return call.Pos()
}

// calleeName names fn in a message: an init function by its file too, as a
// package may have one in every file ("init in b_init.go").
func (fa *funcAnalysis) calleeName(fn *types.Func) string {
	if fn.Name() == "init" && fn.Signature().Recv() == nil && fn.Pos().IsValid() {
		return "init in " + filepath.Base(fa.pass.Fset.Position(fn.Pos()).Filename)
	}
	return fn.Name()
}
