package memcpysync

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"sort"
	"strings"

	"github.com/hiplint/hiplint/internal/cgocall"
	"github.com/hiplint/hiplint/internal/diag"
	"github.com/hiplint/hiplint/internal/flow"
	"github.com/hiplint/hiplint/internal/hipapi"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/cfg"
)

// loc names memory or a handle: a variable, or a field path inside one.
type loc struct {
	root types.Object
	path string // "" or ".f.g"
}

func (l loc) String() string {
	if l.root == nil {
		return l.path
	}
	return l.root.Name() + l.path
}

// under reports whether l is m or a field or element path inside m.
func (l loc) under(m loc) bool {
	return l.root == m.root && (l.path == m.path || strings.HasPrefix(l.path, m.path+".") ||
		strings.HasPrefix(l.path, m.path+"["))
}

type queueKind uint8

const (
	onHost    queueKind = iota
	onNull              // the null stream of device
	onStream            // a stream handle
	onPrivate           // a stream the caller of a wrapper cannot see
)

// queue is where an operation runs.
type queue struct {
	kind        queueKind
	stream      loc    // onStream
	device      string // device key of the null stream or the stream; "?" unknown
	known       bool   // onStream: whether its flags are known
	nonBlocking bool
}

func (q queue) key() string {
	switch q.kind {
	case onNull:
		return "null@" + q.device
	case onStream:
		return fmt.Sprintf("stream@%p%s", q.stream.root, q.stream.path)
	case onPrivate:
		return "private@" + q.device
	}
	return "host"
}

// Device keys: "entry" (current when the function was entered), "c:N" (a
// constant), "pN" (parameter N), "e:expr" (an expression), "?" (unknown).
const (
	entryDevice   = "entry"
	unknownDevice = "?"
)

func sameDevice(a, b string) bool { return a == b || a == unknownDevice || b == unknownDevice }

func (fa *funcAnalysis) deviceName(k string) string {
	var i int
	if _, err := fmt.Sscanf(k, "p%d", &i); err == nil && fa.sig != nil && i < fa.sig.Params().Len() {
		return "device " + fa.sig.Params().At(i).Name()
	}
	switch {
	case k == entryDevice:
		return "the device current on entry"
	case k == unknownDevice:
		return "an unknown device"
	case strings.HasPrefix(k, "c:"), strings.HasPrefix(k, "e:"):
		return "device " + k[2:]
	}
	return "device " + k
}

type streamInfo struct {
	device      string
	known       bool
	nonBlocking bool
}

// pending is a device-to-device copy that may still be in flight.
type pending struct {
	site      int
	dsts      []loc // the destination and its aliases
	queue     queue
	peer      string   // peer copies: the destination device
	kindParam string   // "" a copy for sure; "p3": only if the caller's kind says device-to-device
	waited    []string // queues made to wait for the copy through events
	done      bool     // the host has waited for it
}

// live reports whether a read of cp's destination is checked: in candidate
// mode a synchronized copy still counts.
func (fa *funcAnalysis) live(cp *pending) bool {
	return (!cp.done || fa.candidates) && cp.kindParam == ""
}

func (p *pending) has(l loc, deep bool) bool {
	for _, d := range p.dsts {
		if d == l || deep && d.under(l) {
			return true
		}
	}
	return false
}

func (p *pending) clone() *pending {
	c := *p
	c.dsts = slices.Clone(p.dsts)
	c.waited = slices.Clone(p.waited)
	return &c
}

type state struct {
	device  string
	copies  map[int]*pending
	streams map[loc]streamInfo
	events  map[loc][]int            // event → copy sites it was recorded after
	kinds   map[types.Object]kindSet // the copy kinds a variable may hold on this path
	// status maps a variable holding a call's status (err := check(C.x(...)))
	// to the copies that call issued: where it reports failure they never
	// started.
	status flow.Statuses
	// For summaries: the entry device, and these streams, were synchronized
	// on every path here; nullSynced: the entry device's null stream was (a
	// blocking device-to-host copy on it returned).
	synced        bool
	nullSynced    bool
	syncedStreams map[loc]bool
	// evOps: the event operations on the caller's events made on every
	// path here ("record|r.ev|p0"), for EventOps.
	evOps []string
}

// maxPendingCopies bounds the copies a state tracks at once. Each state
// holds every copy that may still be in flight, and the solver clones states
// at every block, so a function of thousands of copies in branches (generated
// code) cost time quadratic in its size: 20,000 runtime calls took minutes.
// Beyond the bound, further copies are not tracked: hazards they cause in
// such a function go unreported, nothing is reported wrongly.
const maxPendingCopies = 64

// track records p as copy site's pending copy, unless the state already
// tracks maxPendingCopies other copies.
func (s *state) track(site int, p *pending) {
	if _, ok := s.copies[site]; !ok && len(s.copies) >= maxPendingCopies {
		return
	}
	flow.Put(&s.copies, site, p)
}

func newState() *state {
	return &state{device: entryDevice} // maps made on first write (flow.Put)
}

// cloneState copies s. The solver clones a state at every block, so maps
// that are empty stay nil (most are, in most functions) and are made on
// their first write (flow.Put): the clones were a third of this analyzer's
// allocation (docs/performance.md).
func cloneState(s *state) *state {
	c := &state{device: s.device, synced: s.synced, nullSynced: s.nullSynced,
		streams: flow.CloneMap(s.streams), kinds: flow.CloneMap(s.kinds), syncedStreams: flow.CloneMap(s.syncedStreams),
		status: s.status, evOps: slices.Clone(s.evOps)} // status immutable: shared; copies below
	if len(s.events) > 0 {
		c.events = make(map[loc][]int, len(s.events))
		for k, v := range s.events {
			c.events[k] = slices.Clone(v)
		}
	}
	if len(s.copies) > 0 {
		c.copies = make(map[int]*pending, len(s.copies))
		for k, p := range s.copies {
			c.copies[k] = p.clone()
		}
	}
	return c
}

// joinState merges the states of two paths: a copy pending on either is
// pending; a synchronization counts only if both paths made it.
func joinState(into, from *state) *state {
	if into.device != from.device {
		into.device = unknownDevice
	}
	for k, p := range from.copies {
		q, ok := into.copies[k]
		if !ok {
			flow.Put(&into.copies, k, p.clone())
			continue
		}
		for _, d := range p.dsts {
			if !slices.Contains(q.dsts, d) {
				q.dsts = append(q.dsts, d)
			}
		}
		q.waited = slices.DeleteFunc(q.waited, func(w string) bool { return !slices.Contains(p.waited, w) })
		q.done = q.done && p.done
		if q.queue.key() != p.queue.key() {
			q.queue.device = unknownDevice
		}
	}
	for k, v := range from.streams {
		w, ok := into.streams[k]
		if !ok {
			flow.Put(&into.streams, k, v)
			continue
		}
		if w.device != v.device {
			w.device = unknownDevice
		}
		w.nonBlocking = w.nonBlocking || v.nonBlocking
		w.known = w.known && v.known
		into.streams[k] = w
	}
	for k, sites := range into.events {
		other, ok := from.events[k]
		if !ok {
			delete(into.events, k)
			continue
		}
		into.events[k] = slices.DeleteFunc(sites, func(i int) bool { return !slices.Contains(other, i) })
	}
	for k, v := range into.kinds {
		if w, ok := from.kinds[k]; ok {
			into.kinds[k] = v | w // either path's kind
		} else {
			delete(into.kinds, k)
		}
	}
	into.status = into.status.Join(from.status)
	into.evOps = slices.DeleteFunc(into.evOps, func(k string) bool { return !slices.Contains(from.evOps, k) })
	into.synced = into.synced && from.synced
	into.nullSynced = into.nullSynced && from.nullSynced
	for k := range into.syncedStreams {
		if !from.syncedStreams[k] {
			delete(into.syncedStreams, k)
		}
	}
	return into
}

// equalState reports whether two states are the same. The solver compares
// states at every edge it follows, so this must not allocate: comparing
// sorted strings built with fmt made a function of 200 nested ifs take
// minutes.
func equalState(a, b *state) bool {
	if a.device != b.device || a.synced != b.synced || a.nullSynced != b.nullSynced || len(a.copies) != len(b.copies) ||
		len(a.streams) != len(b.streams) || len(a.events) != len(b.events) ||
		len(a.kinds) != len(b.kinds) || len(a.syncedStreams) != len(b.syncedStreams) ||
		a.status.Len() != b.status.Len() || !slices.Equal(a.evOps, b.evOps) {
		return false
	}
	for k, p := range a.copies {
		q, ok := b.copies[k]
		if !ok || p.done != q.done || !sameQueue(p.queue, q.queue) ||
			!sameElems(p.dsts, q.dsts) || !sameElems(p.waited, q.waited) {
			return false
		}
	}
	for k, v := range a.streams {
		if w, ok := b.streams[k]; !ok || w != v {
			return false
		}
	}
	for k, v := range a.events {
		if w, ok := b.events[k]; !ok || !slices.Equal(v, w) {
			return false
		}
	}
	for k, v := range a.kinds {
		if w, ok := b.kinds[k]; !ok || w != v {
			return false
		}
	}
	for k := range a.syncedStreams {
		if _, ok := b.syncedStreams[k]; !ok {
			return false
		}
	}
	if !a.status.Equal(b.status) {
		return false
	}
	return true
}

// sameQueue reports whether a and b are the same queue on the same device.
func sameQueue(a, b queue) bool {
	return a.kind == b.kind && a.device == b.device && (a.kind != onStream || a.stream == b.stream)
}

// sameElems reports whether a and b hold the same elements, in any order,
// counting duplicates.
func sameElems[T comparable](a, b []T) bool {
	if len(a) != len(b) {
		return false
	}
	for _, x := range a {
		if count(a, x) != count(b, x) {
			return false
		}
	}
	return true
}

func count[T comparable](xs []T, x T) int {
	n := 0
	for _, y := range xs {
		if y == x {
			n++
		}
	}
	return n
}

// copySite is one copy call, or one copy a wrapper call issues.
type copySite struct {
	pos   token.Pos
	desc  string // "C.hipMemcpy" or "copyInto (C.hipMemcpy)"
	api   string // the runtime function
	async bool   // an explicit async form: HL1002
}

type siteKey struct {
	node ast.Node
	i    int
}

type funcAnalysis struct {
	*checker
	fn         flow.Func
	info       *types.Info
	sig        *types.Signature
	reporting  bool // report diagnostics (else only summarize)
	cfg        *cfg.CFG
	in         map[*cfg.Block]*state // the solution: each block's entry state
	replay     bool                  // the fixpoint is reached: the walk is final
	closures   int                   // depth of in-place closures being walked
	rangedOver map[ast.Expr]bool     // the X of each range statement
	sites      []*copySite
	siteOf     map[siteKey]int
	hostMem    map[loc]bool
	kernelArgs map[types.Object][]ast.Expr
	// aliases maps memory to the variables assigned views of it anywhere in
	// the function (out := unsafe.Slice((*T)(dst), n)), so that views made
	// before a copy are destinations too.
	aliases  map[loc][]loc
	reported map[string]bool
	// streamCopies maps a local stream handle variable to the stream it is
	// a copy of (h := s.handle(), h := s.h), when that is its one
	// assignment; a handle assigned more than once maps to a loc{}.
	streamCopies map[loc]streamCopy

	// Summary of the function, collected at its returns.
	exits       int
	exitCopies  map[string]ParamCopy
	exitSynced  bool
	exitNull    bool // the entry device's null stream synchronized on every return
	exitStreams map[loc]bool
	readParams  map[int]bool
	// exitDevReads: the reads of the caller's memory queued on the GPU;
	// exitEvOps: the event operations made on every return.
	exitDevReads map[string]DeviceRead
	exitEvOps    []string
	exitDevice   string // the device current at every return ("?" when they differ)
	quietReads   bool   // the device read being checked is not one for the summary
	// boundRecv: calls through function-valued fields, whose callee's
	// receiver the call does not name.
	boundRecv map[*ast.CallExpr]bool
}

func newFuncAnalysis(c *checker, fn flow.Func, reporting bool) *funcAnalysis {
	fa := &funcAnalysis{checker: c, fn: fn, info: c.pass.TypesInfo, reporting: reporting,
		rangedOver: map[ast.Expr]bool{}, siteOf: map[siteKey]int{}, hostMem: map[loc]bool{},
		kernelArgs: map[types.Object][]ast.Expr{}, aliases: map[loc][]loc{}, reported: map[string]bool{},
		streamCopies: map[loc]streamCopy{},
		exitCopies:   map[string]ParamCopy{}, readParams: map[int]bool{}, exitDevReads: map[string]DeviceRead{}}
	fa.sig = fn.Signature(fa.info)
	// Not a map of every node's parent: that map was a third of this
	// analyzer's time and allocation (docs/performance.md).
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		if r, ok := n.(*ast.RangeStmt); ok {
			fa.rangedOver[r.X] = true
		}
		return true
	})
	fa.scanProvenance()
	return fa
}

// parentOf returns n's parent within the function body.
func (fa *funcAnalysis) parentOf(n ast.Node) ast.Node { return flow.Parent(fa.fn.Body, n) }

// scanProvenance finds, flow-insensitively, the variables that hold host
// memory and the kernel argument arrays and what they hold.
func (fa *funcAnalysis) scanProvenance() {
	for range 2 { // twice, for p := &buf[0]; q := p
		ast.Inspect(fa.fn.Body, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.FuncLit:
				return cgocall.IsWrapper(fa.info, x) || fa.idx.InPlace(x)
			case *ast.AssignStmt:
				if len(x.Lhs) == len(x.Rhs) {
					for i := range x.Lhs {
						fa.noteValue(x.Lhs[i], x.Rhs[i])
					}
				}
			case *ast.ValueSpec:
				if len(x.Names) == len(x.Values) {
					for i := range x.Names {
						fa.noteValue(x.Names[i], x.Values[i])
					}
				}
			case *ast.CallExpr:
				c := fa.idx.Match(x)
				if c == nil || c.Func.Role != hipapi.Alloc || c.Func.Alloc != hipapi.HostPinned {
					return true
				}
				if u, ok := ast.Unparen(c.Arg(c.Func.Out)).(*ast.UnaryExpr); ok && u.Op == token.AND {
					if l, ok := fa.varLoc(u.X); ok {
						fa.hostMem[l] = true
					}
				}
			}
			return true
		})
	}
}

func (fa *funcAnalysis) noteValue(lhs, rhs ast.Expr) {
	if ix, ok := ast.Unparen(lhs).(*ast.IndexExpr); ok { // args[1] = unsafe.Pointer(&dst)
		if id, ok := ast.Unparen(ix.X).(*ast.Ident); ok {
			if obj := fa.objOf(id); obj != nil && !slices.Contains(fa.kernelArgs[obj], rhs) {
				fa.kernelArgs[obj] = append(fa.kernelArgs[obj], rhs)
			}
		}
		return
	}
	l, ok := fa.varLoc(lhs)
	if !ok {
		return
	}
	if fa.isHostMem(rhs) {
		fa.hostMem[l] = true
	}
	// A view and what it views are the same memory, whichever of them a
	// copy writes: h := uintptr(p) then a copy into h writes *p.
	if rl, ok := fa.ptrLoc(rhs); ok && rl != l && !cgoTemp(l) {
		if !slices.Contains(fa.aliases[rl], l) {
			fa.aliases[rl] = append(fa.aliases[rl], l)
		}
		if !slices.Contains(fa.aliases[l], rl) {
			fa.aliases[l] = append(fa.aliases[l], rl)
		}
	}
	if cl, ok := ast.Unparen(rhs).(*ast.CompositeLit); ok && l.path == "" {
		fa.kernelArgs[l.root] = append(fa.kernelArgs[l.root], cl.Elts...)
	}
	fa.noteStreamCopy(l, rhs)
}

// streamCopy is the one assignment of a local stream handle variable.
type streamCopy struct {
	from loc
	rhs  ast.Expr
}

// noteStreamCopy records h := s.handle() or h := s.h for a local variable h
// of a stream handle type, so that work on h runs on s.h: wrappers written
// as `cs := hStream.c(); C.cuMemcpyDtoDAsync(..., cs)` then tell their
// callers which stream they use. A second assignment of h (another
// right-hand side) forgets it.
func (fa *funcAnalysis) noteStreamCopy(l loc, rhs ast.Expr) {
	if l.path != "" || l.root == nil || !isStreamType(l.root.Type()) {
		return
	}
	if prev, seen := fa.streamCopies[l]; seen {
		if prev.rhs != rhs {
			fa.streamCopies[l] = streamCopy{}
		}
		return
	}
	from, ok := fa.ptrLoc(rhs)
	if !ok || from == l {
		fa.streamCopies[l] = streamCopy{rhs: rhs}
		return
	}
	fa.streamCopies[l] = streamCopy{from: from, rhs: rhs}
}

// cgoTemp reports whether l is a temporary of cgo's pointer-check wrappers
// (_cgo0 := q), which copy each argument into one of their own. Such a
// temporary is no user alias: keeping one per call made every copy's
// destination list, and the solver's work, grow with the number of calls in
// the function (minutes on a function of 2,000 calls;
// TestBadInputHugeFunctions).
func cgoTemp(l loc) bool {
	return l.path == "" && l.root != nil && strings.HasPrefix(l.root.Name(), "_cgo")
}

func (fa *funcAnalysis) objOf(id *ast.Ident) types.Object {
	if obj := fa.info.Uses[id]; obj != nil {
		return obj
	}
	return fa.info.Defs[id]
}

func (fa *funcAnalysis) run() {
	fa.cfg = fa.idx.CFG(fa.fn.Body)
	fa.in = flow.Solve(fa.cfg, flow.Problem[*state]{
		Entry:    newState(),
		Clone:    cloneState,
		Join:     joinState,
		Equal:    equalState,
		Transfer: fa.transfer,
		Branch:   fa.branch,
	})
	fa.walkSolution()
}

// walkSolution walks the solved function once more with the fixpoint's
// states (replay): this walk collects the summary and reports.
func (fa *funcAnalysis) walkSolution() {
	fa.replay = true
	for _, b := range fa.cfg.Blocks {
		s, ok := fa.in[b]
		if !ok {
			continue
		}
		s = cloneState(s)
		for _, n := range b.Nodes {
			s = fa.transfer(n, s)
		}
	}
}

// reportSolution walks a summary analysis's solution again, reporting: the
// states are those a reporting run would compute, since the summaries it
// used are final (checker.final).
func (fa *funcAnalysis) reportSolution() {
	fa.reporting = true
	fa.walkSolution()
}

// summary returns the facts the function's returns support.
func (fa *funcAnalysis) summary() (*CopiesInto, *Synchronizes, []int) {
	var copies *CopiesInto
	if len(fa.exitCopies) > 0 {
		keys := make([]string, 0, len(fa.exitCopies))
		for k := range fa.exitCopies {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		copies = &CopiesInto{}
		for _, k := range keys {
			copies.Copies = append(copies.Copies, fa.exitCopies[k])
		}
	}
	var syncs *Synchronizes
	if fa.exits > 0 {
		var streams []string
		for l := range fa.exitStreams {
			if ref := fa.paramRef(l); ref != "" {
				streams = append(streams, ref)
			}
		}
		if fa.exitNull && !fa.exitSynced {
			streams = append(streams, nullStreamRef)
		}
		sort.Strings(streams)
		if fa.exitSynced || len(streams) > 0 {
			syncs = &Synchronizes{Device: fa.exitSynced, Streams: streams}
		}
	}
	var reads []int
	for i := range fa.readParams {
		reads = append(reads, i)
	}
	sort.Ints(reads)
	return copies, syncs, reads
}

func (fa *funcAnalysis) transfer(n ast.Node, s *state) *state {
	switch n := n.(type) {
	case *ast.GoStmt:
		fa.goStmt(n, s)
	case *ast.DeferStmt:
		// Deferred calls run at exit, after every read in the function.
	case *ast.ValueSpec:
		for _, v := range n.Values {
			fa.visit(v, s)
		}
		for i, id := range n.Names {
			var rhs ast.Expr
			if len(n.Values) == len(n.Names) {
				rhs = n.Values[i]
			}
			fa.assign(id, rhs, s)
		}
		lhs := make([]ast.Expr, len(n.Names))
		for i, id := range n.Names {
			lhs[i] = id
		}
		s.status = s.status.Assign(fa.info, lhs, n.Values, fa.sitesIn)
	case *ast.AssignStmt:
		for _, r := range n.Rhs {
			fa.visit(r, s)
		}
		if n.Tok != token.ASSIGN && n.Tok != token.DEFINE {
			for _, l := range n.Lhs {
				fa.visit(l, s) // x[i] += 1 reads x[i]
			}
		}
		for i, l := range n.Lhs {
			var rhs ast.Expr
			if len(n.Lhs) == len(n.Rhs) {
				rhs = n.Rhs[i]
			}
			fa.assign(l, rhs, s)
		}
		s.status = s.status.Assign(fa.info, n.Lhs, n.Rhs, fa.sitesIn)
	case *ast.ReturnStmt:
		for _, r := range n.Results {
			fa.visit(r, s)
		}
		if fa.closures == 0 { // a closure's return is not the function's
			fa.atExit(s)
		}
	default:
		fa.visit(n, s)
	}
	return s
}

// visit processes n's runtime calls, summarized calls and host reads in
// evaluation order.
func (fa *funcAnalysis) visit(n ast.Node, s *state) {
	var walk func(ast.Node) bool
	walk = func(node ast.Node) bool {
		if x, ok := node.(ast.Expr); ok && fa.rangedOver[x] {
			fa.hostRead(x, node, "this range loop", false, s)
		}
		switch x := node.(type) {
		case *ast.FuncLit:
			// A closure that runs in place (ctx.Do(func() error {...}))
			// runs here, on this function's variables. Other closures are
			// functions of their own; cgo wrappers are matched at their call.
			if fa.idx.InPlace(x) {
				fa.inlineClosure(x, s)
			}
			return false
		case *ast.CallExpr:
			if c := fa.idx.Match(x); c != nil {
				for _, a := range c.Args {
					ast.Inspect(a, walk)
				}
				fa.runtimeCall(c, s)
				return false
			}
			if name, args, ok := fa.cLibCall(x); ok {
				for _, a := range args {
					ast.Inspect(a, walk)
				}
				fa.cLibRead(x, name, args, s)
				return false
			}
			if name, args, sig, ok := cgocall.AnyCall(fa.info, x); ok {
				for _, a := range args {
					ast.Inspect(a, walk)
				}
				fa.libraryRead(x, name, args, sig, s)
				return false
			}
			ast.Inspect(x.Fun, walk)
			for _, a := range x.Args {
				ast.Inspect(a, walk)
			}
			if fa.isBuiltin(x, "copy") && len(x.Args) == 2 {
				fa.hostRead(x.Args[1], x, "copy", false, s)
			}
			if fa.isBuiltin(x, "append") && x.Ellipsis.IsValid() && len(x.Args) == 2 {
				fa.hostRead(x.Args[1], x, "append", false, s) // append(out, view...)
			}
			fa.summarizedCall(x, s)
			return false
		case *ast.UnaryExpr:
			// &s[i] takes an address; it reads nothing.
			if ix, ok := ast.Unparen(x.X).(*ast.IndexExpr); ok && x.Op == token.AND {
				ast.Inspect(ix.X, walk)
				ast.Inspect(ix.Index, walk)
				return false
			}
		case *ast.StarExpr:
			fa.hostRead(x.X, x, "this dereference", false, s)
		case *ast.IndexExpr:
			fa.hostRead(x.X, x, "this index expression", false, s)
		}
		return true
	}
	ast.Inspect(n, walk)
}

// sitesIn returns the copy sites of the calls in e.
func (fa *funcAnalysis) sitesIn(e ast.Expr) []int {
	var out []int
	ast.Inspect(e, func(n ast.Node) bool {
		if lit, ok := n.(*ast.FuncLit); ok && !cgocall.IsWrapper(fa.info, lit) {
			return false
		}
		if call, ok := n.(*ast.CallExpr); ok {
			for i := 0; ; i++ {
				site, ok := fa.siteOf[siteKey{call, i}]
				if !ok {
					break
				}
				out = append(out, site)
			}
		}
		return true
	})
	return out
}

// branch drops, on the branch where a status says the call failed
// (err != nil, r != 0), the copies that call issued: a copy that returned an
// error is not in flight.
func (fa *funcAnalysis) branch(cond ast.Expr, taken bool, s *state) *state {
	v, failed := flow.FailedStatus(fa.info, cond, taken)
	if !failed {
		return s
	}
	var sites []int
	if id, ok := ast.Unparen(v).(*ast.Ident); ok {
		sites = s.status.Sites(fa.objOf(id))
	} else {
		sites = fa.sitesIn(v)
	}
	for _, i := range sites {
		delete(s.copies, i)
	}
	return s
}

// inlineClosure walks an in-place closure's body from s, with its own
// control flow, and leaves in s the state at its normal exits.
func (fa *funcAnalysis) inlineClosure(lit *ast.FuncLit, s *state) {
	outer := fa.replay
	fa.closures++
	out, ok := flow.ClosureExits(fa.idx, lit, s, flow.Problem[*state]{
		Clone: cloneState, Join: joinState, Equal: equalState, Transfer: fa.transfer, Branch: fa.branch,
	}, func(final bool) { fa.replay = outer && final })
	fa.closures--
	fa.replay = outer
	if ok {
		*s = *out
	}
}

func (fa *funcAnalysis) isBuiltin(call *ast.CallExpr, name string) bool {
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok {
		return false
	}
	b, ok := fa.info.Uses[id].(*types.Builtin)
	return ok && b.Name() == name
}

func (fa *funcAnalysis) isUnsafe(call *ast.CallExpr, names ...string) bool {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	b, ok := fa.info.Uses[sel.Sel].(*types.Builtin)
	return ok && slices.Contains(names, b.Name())
}

func (fa *funcAnalysis) isConversion(call *ast.CallExpr) bool {
	tv, ok := fa.info.Types[call.Fun]
	return ok && tv.IsType() && len(call.Args) == 1
}

// varLoc returns the variable or field path e denotes.
func (fa *funcAnalysis) varLoc(e ast.Expr) (loc, bool) {
	var path []string
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.Ident:
			v, ok := fa.objOf(x).(*types.Var)
			if !ok {
				return loc{}, false
			}
			slices.Reverse(path)
			return loc{root: v, path: strings.Join(path, "")}, true
		case *ast.SelectorExpr:
			if sel, ok := fa.info.Selections[x]; ok && sel.Kind() == types.FieldVal {
				path = append(path, "."+x.Sel.Name)
				e = x.X
				continue
			}
			if v, ok := fa.info.Uses[x.Sel].(*types.Var); ok && len(path) == 0 { // pkg.Var
				return loc{root: v}, true
			}
			if v, ok := fa.info.Uses[x.Sel].(*types.Var); ok {
				slices.Reverse(path)
				return loc{root: v, path: strings.Join(path, "")}, true
			}
			return loc{}, false
		case *ast.StarExpr: // (*p).f is p.f
			e = x.X
		case *ast.IndexExpr:
			// An element of a map or slice of pointers (buffers["y"],
			// bufs[i]), named by its index as written: another index may
			// be the same element, but is not taken to be.
			if !fa.elementHoldsPointer(x) {
				return loc{}, false
			}
			path = append(path, "["+types.ExprString(x.Index)+"]")
			e = x.X
		default:
			return loc{}, false
		}
	}
}

// elementHoldsPointer reports whether x is an element of a map, slice or
// array whose elements can hold memory.
func (fa *funcAnalysis) elementHoldsPointer(x *ast.IndexExpr) bool {
	t := fa.info.TypeOf(x.X)
	if t == nil {
		return false
	}
	switch t.Underlying().(type) {
	case *types.Map, *types.Slice, *types.Array:
	default:
		return false
	}
	et := fa.info.TypeOf(x)
	if et == nil {
		return false
	}
	return isUintptr(et) || mayHoldPointer(et)
}

// ptrLoc returns the memory a pointer-valued expression points into: the
// variable behind conversions, unsafe.Add/Slice, slicing and &s[i].
func (fa *funcAnalysis) ptrLoc(e ast.Expr) (loc, bool) {
	for range 16 {
		switch x := ast.Unparen(e).(type) {
		case *ast.CallExpr:
			switch {
			case fa.isConversion(x):
				e = x.Args[0]
			case fa.isUnsafe(x, "Add", "Slice", "SliceData", "String", "StringData") && len(x.Args) > 0:
				e = x.Args[0]
			default:
				// A getter (b.Ptr()) names what it returns: b.ptr.
				if ref := fa.getterOf(fa.callee(x)); ref != "" {
					_, l, ok := fa.resolveRef(x, ref)
					return l, ok
				}
				return loc{}, false
			}
		case *ast.SliceExpr:
			e = x.X
		case *ast.UnaryExpr:
			ix, ok := ast.Unparen(x.X).(*ast.IndexExpr)
			if x.Op != token.AND || !ok {
				return loc{}, false
			}
			e = ix.X
		case *ast.Ident, *ast.SelectorExpr, *ast.IndexExpr:
			return fa.varLoc(x)
		default:
			return loc{}, false
		}
	}
	return loc{}, false
}

// stripConversions removes parentheses and type conversions.
func (fa *funcAnalysis) stripConversions(e ast.Expr) ast.Expr {
	for range 16 {
		call, ok := ast.Unparen(e).(*ast.CallExpr)
		if !ok || !fa.isConversion(call) {
			return ast.Unparen(e)
		}
		e = call.Args[0]
	}
	return e
}

// isHostMem reports whether e is provably host memory: Go memory (&x,
// &s[0], unsafe.SliceData), C.malloc, or a variable holding such memory or
// a pinned host allocation.
func (fa *funcAnalysis) isHostMem(e ast.Expr) bool {
	for range 16 {
		switch x := ast.Unparen(e).(type) {
		case *ast.UnaryExpr:
			return x.Op == token.AND
		case *ast.CallExpr:
			switch {
			case fa.isConversion(x):
				e = x.Args[0]
				continue
			case fa.isUnsafe(x, "SliceData", "StringData"):
				return true
			case fa.isUnsafe(x, "Add") && len(x.Args) > 0:
				e = x.Args[0]
				continue
			}
			if id, ok := ast.Unparen(x.Fun).(*ast.Ident); ok {
				switch id.Name {
				case "_CMalloc", "_Cfunc_malloc", "_Cfunc_calloc":
					return true
				}
			}
			return false
		case *ast.Ident, *ast.SelectorExpr:
			l, ok := fa.varLoc(x)
			return ok && fa.hostMem[l]
		default:
			return false
		}
	}
	return false
}

// cLibCall recognizes calls of the C library functions that read memory on
// the host (memcpy, memmove, memcmp, C.GoBytes, C.GoString, C.GoStringN),
// direct or inside cgo's pointer-checking wrapper.
func (fa *funcAnalysis) cLibCall(call *ast.CallExpr) (string, []ast.Expr, bool) {
	inner, temps := call, map[types.Object]ast.Expr{}
	if lit, ok := ast.Unparen(call.Fun).(*ast.FuncLit); ok {
		if !cgocall.IsWrapper(fa.info, lit) || len(lit.Body.List) == 0 {
			return "", nil, false
		}
		for _, st := range lit.Body.List {
			if as, ok := st.(*ast.AssignStmt); ok && len(as.Lhs) == len(as.Rhs) {
				for i, l := range as.Lhs {
					if id, ok := l.(*ast.Ident); ok {
						if obj := fa.info.Defs[id]; obj != nil {
							temps[obj] = as.Rhs[i]
						}
					}
				}
			}
		}
		var e ast.Expr
		switch last := lit.Body.List[len(lit.Body.List)-1].(type) {
		case *ast.ReturnStmt:
			if len(last.Results) == 1 {
				e = last.Results[0]
			}
		case *ast.ExprStmt:
			e = last.X
		}
		if inner, ok = ast.Unparen(e).(*ast.CallExpr); !ok {
			return "", nil, false
		}
	}
	id, ok := ast.Unparen(inner.Fun).(*ast.Ident)
	if !ok {
		return "", nil, false
	}
	name, ok := strings.CutPrefix(id.Name, "_Cfunc_")
	if !ok {
		return "", nil, false
	}
	switch name {
	case "memcpy", "memmove", "memcmp", "GoBytes", "GoString", "GoStringN":
	default:
		return "", nil, false
	}
	args := make([]ast.Expr, len(inner.Args))
	for i, a := range inner.Args {
		args[i] = a
		if aid, ok := a.(*ast.Ident); ok {
			if v, ok := temps[fa.info.Uses[aid]]; ok {
				args[i] = v
			}
		}
	}
	return name, args, true
}

func (fa *funcAnalysis) cLibRead(call *ast.CallExpr, name string, args []ast.Expr, s *state) {
	var read []int
	switch name {
	case "memcpy", "memmove":
		read = []int{1}
	case "memcmp":
		read = []int{0, 1}
	default:
		read = []int{0}
	}
	for _, i := range read {
		if i < len(args) {
			fa.hostRead(args[i], call, "C."+name, false, s)
		}
	}
}

// hostRead handles a host access to the memory e points into.
func (fa *funcAnalysis) hostRead(e ast.Expr, at ast.Node, what string, deep bool, s *state) {
	l, ok := fa.ptrLoc(e)
	if !ok {
		return
	}
	if fa.replay && !s.synced && fa.sig != nil {
		if i, ok := flow.ParamIndex(fa.sig, l.root); ok {
			fa.readParams[i] = true
		}
	}
	for _, cp := range fa.pendingCopies(s) {
		if fa.live(cp) && cp.has(l, deep) {
			fa.report(cp, at, at, queue{kind: onHost}, l, what, s)
		}
	}
}

// deviceRead handles a read of the memory at l by work queued on q.
func (fa *funcAnalysis) deviceRead(l loc, deep bool, at ast.Node, q queue, what string, s *state) {
	fa.noteDeviceRead(l, q, s)
	for _, cp := range fa.pendingCopies(s) {
		if fa.live(cp) && cp.has(l, deep) && !fa.ordered(cp, q) {
			fa.report(cp, at, at, q, l, what, s)
		}
	}
}

func (fa *funcAnalysis) pendingCopies(s *state) []*pending {
	out := make([]*pending, 0, len(s.copies))
	for _, p := range s.copies {
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].site < out[j].site })
	return out
}

// ordered reports whether work on q runs after copy cp.
func (fa *funcAnalysis) ordered(cp *pending, q queue) bool {
	if fa.candidates {
		return false
	}
	if cp.done {
		return true
	}
	if q.kind == onHost {
		return false
	}
	if slices.Contains(cp.waited, q.key()) {
		return true
	}
	cq := cp.queue
	switch cq.kind {
	case onNull:
		if q.kind == onNull {
			if sameDevice(cq.device, q.device) {
				return true
			}
			return !fa.strict && cp.peer != "" && sameDevice(cp.peer, q.device)
		}
		if fa.strict || q.kind != onStream {
			return false
		}
		if !q.known {
			return true // a stream of unknown kind gets the benefit of the doubt
		}
		return !q.nonBlocking && sameDevice(cq.device, q.device)
	case onStream:
		if q.kind == onStream && q.stream == cq.stream {
			return true
		}
		if fa.strict {
			return false
		}
		if q.kind == onNull {
			return !(cq.known && cq.nonBlocking) && sameDevice(cq.device, q.device)
		}
	}
	return false
}

func (fa *funcAnalysis) runtimeCall(c *cgocall.Call, s *state) {
	f := c.Func
	switch f.Role {
	case hipapi.SetDevice:
		s.device = fa.deviceKey(c.Arg(f.Device))
	case hipapi.DeviceSync:
		fa.deviceSync(s)
	case hipapi.StreamSync:
		fa.streamSync(fa.queueOf(c.Arg(f.Stream), s), s)
	case hipapi.EventRecord:
		ev, ok := fa.varLoc(fa.stripConversions(c.Arg(f.Event)))
		if !ok {
			return
		}
		q := fa.queueOf(c.Arg(f.Stream), s)
		fa.recordEvent(ev, q, s)
		fa.noteEventOp("record", ev, &q, s)
	case hipapi.EventSync:
		if ev, ok := fa.varLoc(fa.stripConversions(c.Arg(f.Event))); ok {
			fa.syncEvent(ev, s)
			fa.noteEventOp("sync", ev, nil, s)
		}
	case hipapi.StreamWaitEvent:
		ev, ok := fa.varLoc(fa.stripConversions(c.Arg(f.Event)))
		if !ok {
			return
		}
		q := fa.queueOf(c.Arg(f.Stream), s)
		fa.waitEvent(ev, q, s)
		fa.noteEventOp("wait", ev, &q, s)
	case hipapi.StreamCreate:
		u, ok := ast.Unparen(c.Arg(f.Out)).(*ast.UnaryExpr)
		if !ok || u.Op != token.AND {
			return
		}
		l, ok := fa.varLoc(u.X)
		if !ok {
			return
		}
		info := streamInfo{device: s.device, known: true}
		if flags := c.Arg(f.Flags); flags != nil {
			v, ok := cgocall.IntValue(fa.info, flags)
			info.known = ok
			info.nonBlocking = ok && v&hipapi.NonBlockingStream != 0
		}
		flow.Put(&s.streams, l, info)
	case hipapi.Copy:
		fa.copyCall(c, s)
	case hipapi.Launch:
		args := c.Arg(f.KernelArgs)
		if args == nil {
			return
		}
		q := fa.queueOf(c.Arg(f.Stream), s)
		for _, m := range fa.mentions(args) {
			fa.deviceRead(m.loc, true, c.Expr, q, "C."+f.Name, s)
		}
	}
}

func (fa *funcAnalysis) deviceSync(s *state) {
	for _, cp := range s.copies {
		if sameDevice(cp.queue.device, s.device) {
			cp.done = true
		}
	}
	if s.device == entryDevice {
		s.synced = true
	}
}

func (fa *funcAnalysis) streamSync(q queue, s *state) {
	for _, cp := range s.copies {
		if cp.done {
			continue
		}
		cq := cp.queue
		switch {
		case slices.Contains(cp.waited, q.key()):
			cp.done = true
		case q.kind == onNull && cq.kind == onNull && sameDevice(cq.device, q.device):
			cp.done = true
		case q.kind == onNull && cq.kind == onNull && cp.peer != "" && !fa.strict && sameDevice(cp.peer, q.device):
			cp.done = true
		case q.kind == onStream && cq.kind == onStream && cq.stream == q.stream:
			cp.done = true
		}
	}
	if q.kind == onStream {
		flow.Put(&s.syncedStreams, q.stream, true)
	}
}

// queueOf returns where work given stream expression e runs.
func (fa *funcAnalysis) queueOf(e ast.Expr, s *state) queue {
	null := queue{kind: onNull, device: s.device}
	if e == nil {
		return null
	}
	if v, ok := cgocall.IntValue(fa.info, e); ok && v == 0 {
		return null
	}
	x := fa.stripConversions(e)
	if id, ok := x.(*ast.Ident); ok {
		if _, isNil := fa.info.Uses[id].(*types.Nil); isNil {
			return null
		}
	}
	if v, ok := cgocall.IntValue(fa.info, x); ok && v == 0 {
		return null
	}
	if name, ok := cgocall.ConstName(fa.info, x); ok {
		if k, ok := hipapi.LookupConst(name); ok {
			switch k.Role {
			case hipapi.NullStream:
				return null
			case hipapi.PerThreadStream:
				// The per-thread default stream is a blocking stream.
				return queue{kind: onStream, stream: loc{path: "per-thread"}, device: s.device, known: true}
			}
		}
	}
	l, ok := fa.varLoc(x)
	if !ok {
		// A getter of a stream wrapper (s.handle()) names the field it
		// returns: s.h.
		if call, isCall := x.(*ast.CallExpr); isCall {
			if gl, gok := fa.ptrLoc(call); gok {
				return fa.streamAt(gl, nil, s)
			}
		}
		return queue{kind: onStream, stream: loc{path: types.ExprString(x)}, device: unknownDevice}
	}
	if _, created := s.streams[l]; !created {
		if sc := fa.streamCopies[l]; sc.from.root != nil {
			return fa.streamAt(sc.from, nil, s)
		}
	}
	return fa.streamAt(l, x, s)
}

func (fa *funcAnalysis) streamAt(l loc, e ast.Expr, s *state) queue {
	if info, ok := s.streams[l]; ok {
		return queue{kind: onStream, stream: l, device: info.device, known: info.known, nonBlocking: info.nonBlocking}
	}
	q := queue{kind: onStream, stream: l, device: unknownDevice}
	v := fieldVar(l)
	if e != nil {
		v = fieldOrGlobal(fa.info, e)
	}
	if k, ok := fa.streamVarKind(v); ok {
		q.known, q.nonBlocking = true, k == nonBlockingKind
	}
	return q
}

func (fa *funcAnalysis) deviceKey(e ast.Expr) string {
	if e == nil {
		return unknownDevice
	}
	if v, ok := cgocall.IntValue(fa.info, e); ok {
		return fmt.Sprintf("c:%d", v)
	}
	x := fa.stripConversions(e)
	if v, ok := cgocall.IntValue(fa.info, x); ok {
		return fmt.Sprintf("c:%d", v)
	}
	if l, ok := fa.varLoc(x); ok {
		if ref := fa.paramRef(l); ref != "" {
			return ref
		}
	}
	return "e:" + types.ExprString(x)
}

// kindSet is a set of copy kinds (hipMemcpyKind values 0 to 4, bit k for
// kind k); kinds out of that range make the set unknown.
type kindSet uint8

func kindOf(v int64) (kindSet, bool) {
	if v < 0 || v > 7 {
		return 0, false
	}
	return 1 << v, true
}

// kindValue returns the copy kind e holds, if known on this path.
func (fa *funcAnalysis) kindValue(e ast.Expr, s *state) (int64, bool) {
	ks, ok := fa.kindsOf(e, s)
	if !ok || ks&(ks-1) != 0 {
		return 0, false
	}
	for v := int64(0); v < 8; v++ {
		if ks == 1<<v {
			return v, true
		}
	}
	return 0, false
}

// kindsOf returns the copy kinds e may hold on this path: a constant, or a
// variable assigned kinds on every path here (a switch that picks one).
func (fa *funcAnalysis) kindsOf(e ast.Expr, s *state) (kindSet, bool) {
	if v, ok := cgocall.IntValue(fa.info, e); ok {
		return kindOf(v)
	}
	x := fa.stripConversions(e)
	if v, ok := cgocall.IntValue(fa.info, x); ok {
		return kindOf(v)
	}
	if id, ok := x.(*ast.Ident); ok {
		ks, ok := s.kinds[fa.objOf(id)]
		return ks, ok
	}
	return 0, false
}

func (fa *funcAnalysis) copyCall(c *cgocall.Call, s *state) {
	f := c.Func
	dst, src := c.Arg(f.Dst), c.Arg(f.Src)
	q := queue{kind: onNull, device: s.device}
	if f.Stream != 0 {
		q = fa.queueOf(c.Arg(f.Stream), s)
	}
	// The copy reads its source on q. A device-to-device copy's source read
	// is left out of the summary (DeviceReads): wrappers are mostly copies,
	// and the reads their callers missed are downloads, launches and
	// library calls.
	if l, ok := fa.ptrLoc(src); ok {
		_, d2d := fa.deviceToDevice(c, s)
		fa.quietReads = d2d || fa.isHostMem(src) // a host source is read on the host, in the call
		fa.deviceRead(l, false, c.Expr, q, "C."+f.Name, s)
		fa.quietReads = false
	}
	async := strings.HasSuffix(f.Name, "Async")
	// A blocking device-to-host copy returns after everything ordered before it.
	if !async && fa.isDeviceToHost(c, s) {
		for _, cp := range s.copies {
			if fa.ordered(cp, q) {
				cp.done = true
			}
		}
		if q.kind == onNull && q.device == entryDevice {
			s.nullSynced = true // b.Download(out) orders its caller's null-stream copies
		}
	}
	kindParam, ok := fa.deviceToDevice(c, s)
	if !ok {
		return
	}
	dl, ok := fa.ptrLoc(dst)
	if !ok {
		return
	}
	site := fa.site(c.Expr, 0, "C."+f.Name, f.Name, async)
	p := &pending{site: site, dsts: fa.withAliases(dl), queue: q, kindParam: kindParam}
	if f.Direction == hipapi.Peer {
		p.peer = fa.deviceKey(c.Arg(f.DstDevice))
	}
	s.track(site, p)
}

// withAliases returns l and the views of it the function makes.
func (fa *funcAnalysis) withAliases(l loc) []loc {
	out := []loc{l}
	for i := 0; i < len(out); i++ {
		for _, a := range fa.aliases[out[i]] {
			if !slices.Contains(out, a) {
				out = append(out, a)
			}
		}
	}
	return out
}

func (fa *funcAnalysis) site(n ast.Node, i int, desc, api string, async bool) int {
	k := siteKey{n, i}
	if idx, ok := fa.siteOf[k]; ok {
		return idx
	}
	fa.sites = append(fa.sites, &copySite{pos: n.Pos(), desc: desc, api: api, async: async})
	fa.siteOf[k] = len(fa.sites) - 1
	return len(fa.sites) - 1
}

func (fa *funcAnalysis) isDeviceToHost(c *cgocall.Call, s *state) bool {
	f := c.Func
	dstHost, srcHost := fa.isHostMem(c.Arg(f.Dst)), fa.isHostMem(c.Arg(f.Src))
	switch f.Direction {
	case hipapi.DeviceToHost:
		return true
	case hipapi.FromKind:
		v, ok := fa.kindValue(c.Arg(f.Kind), s)
		return ok && (v == hipapi.KindDeviceToHost || v == hipapi.KindDefault && dstHost && !srcHost)
	case hipapi.Unified:
		return dstHost && !srcHost
	}
	return false
}

// deviceToDevice reports whether c is a host-asynchronous device-to-device
// copy; kindParam names the parameter whose value decides, when it is one.
func (fa *funcAnalysis) deviceToDevice(c *cgocall.Call, s *state) (kindParam string, ok bool) {
	f := c.Func
	// ROCm skips the host synchronization only when both pointers are device
	// allocations; with host memory on either side the copy blocks.
	if fa.isHostMem(c.Arg(f.Dst)) || fa.isHostMem(c.Arg(f.Src)) {
		return "", false
	}
	switch f.Direction {
	case hipapi.DeviceToDevice, hipapi.Peer, hipapi.Unified:
		return "", true
	case hipapi.FromKind:
		k := c.Arg(f.Kind)
		if ks, ok := fa.kindsOf(k, s); ok {
			// A kind picked at run time: on the paths where it is
			// device-to-device (or default), the copy is one.
			d2d, _ := kindOf(hipapi.KindDeviceToDevice)
			def, _ := kindOf(hipapi.KindDefault)
			return "", ks&(d2d|def) != 0
		}
		if l, ok := fa.varLoc(fa.stripConversions(k)); ok {
			if ref := fa.paramRef(l); ref != "" {
				return ref, true
			}
		}
	}
	return "", false
}

// assign handles lhs = rhs: kinds held in variables, aliases of copy
// destinations, and copied stream handles.
func (fa *funcAnalysis) assign(lhs, rhs ast.Expr, s *state) {
	ll, ok := fa.varLoc(lhs)
	if !ok {
		return
	}
	if cgoTemp(ll) {
		return
	}
	if ll.path == "" {
		if ks, ok := fa.kindsOrNone(rhs, s); ok {
			flow.Put(&s.kinds, ll.root, ks)
		} else {
			delete(s.kinds, ll.root)
		}
	}
	var rl loc
	rok := false
	if rhs != nil {
		rl, rok = fa.ptrLoc(rhs)
	}
	for k, cp := range s.copies {
		cp.dsts = slices.DeleteFunc(cp.dsts, func(d loc) bool { return d.under(ll) })
		if rok && cp.has(rl, false) {
			cp.dsts = append(cp.dsts, ll)
		}
		if len(cp.dsts) == 0 {
			delete(s.copies, k)
		}
	}
	if rok {
		if info, ok := s.streams[rl]; ok {
			flow.Put(&s.streams, ll, info)
			return
		}
	}
	delete(s.streams, ll)
}

func (fa *funcAnalysis) kindsOrNone(e ast.Expr, s *state) (kindSet, bool) {
	if e == nil {
		return 0, false
	}
	return fa.kindsOf(e, s)
}

// mention is a variable or field path named in an expression.
type mention struct {
	loc  loc
	node ast.Node
}

// mentions returns the variables and field paths e names, in source order,
// looking through kernel argument arrays built in this function.
func (fa *funcAnalysis) mentions(e ast.Node) []mention {
	var out []mention
	seen := map[types.Object]bool{}
	var walk func(n ast.Node) bool
	walk = func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.SelectorExpr:
			if l, ok := fa.varLoc(x); ok {
				out = append(out, mention{l, x})
				return false
			}
		case *ast.Ident:
			obj := fa.objOf(x)
			if v, ok := obj.(*types.Var); ok {
				out = append(out, mention{loc{root: v}, x})
				if elts, ok := fa.kernelArgs[v]; ok && !seen[v] {
					seen[v] = true
					for _, el := range elts {
						ast.Inspect(el, walk)
					}
				}
			}
		}
		return true
	}
	ast.Inspect(e, walk)
	return out
}

// summarizedCall applies the facts of a called Go function.
func (fa *funcAnalysis) summarizedCall(call *ast.CallExpr, s *state) {
	fn := fa.callee(call)
	if fn == nil {
		// A call through a field that always holds one function: its
		// summary applies, except what names the receiver bound where the
		// method value was stored (resolveRef refuses "r").
		if fn = flow.FieldCallee(fa.info, fa.funcFields, call); fn == nil {
			return
		}
		flow.Put(&fa.boundRecv, call, true)
	}
	ops := fa.eventOpsOf(fn)
	fa.applyEventOps(call, fn, ops, "wait", s)
	fa.applyDeviceReads(call, fn, s)
	for _, i := range fa.readsOf(fn) {
		if arg := flow.ArgAt(call, i); arg != nil {
			fa.hostRead(arg, call, fn.Name(), true, s)
		}
	}
	if sy := fa.syncsOf(fn); sy != nil {
		if sy.Device {
			fa.deviceSync(s)
		}
		for _, ref := range sy.Streams {
			if ref == nullStreamRef {
				fa.streamSync(queue{kind: onNull, device: s.device}, s)
				if s.device == entryDevice {
					s.nullSynced = true
				}
				continue
			}
			if e, l, ok := fa.resolveRef(call, ref); ok {
				fa.streamSync(fa.streamAt(l, fieldExpr(e, l), s), s)
			}
		}
	}
	fa.applyEventOps(call, fn, ops, "sync", s)
	if ci := fa.copiesOf(fn); ci != nil {
		for i, pc := range ci.Copies {
			fa.wrapperCopy(call, fn, i, pc, s)
		}
	}
	fa.applyEventOps(call, fn, ops, "record", s)
	if d := fa.setsDeviceOf(fn); d != "" {
		s.device = fa.mapDevice(call, d, s)
	}
}

// fieldExpr returns e when l is the whole argument (so that a package-level
// stream variable's kind is found); field paths are looked up by state only.
func fieldExpr(e ast.Expr, l loc) ast.Expr {
	if l.path == "" {
		return e
	}
	return nil
}

// resolveRef maps a fact's parameter reference ("p0", "r.buf") to the
// caller's argument and the location it denotes.
func (fa *funcAnalysis) resolveRef(call *ast.CallExpr, ref string) (ast.Expr, loc, bool) {
	head, path, _ := strings.Cut(ref, ".")
	if path != "" {
		path = "." + path
	}
	i := -1
	if head != "r" {
		if _, err := fmt.Sscanf(head, "p%d", &i); err != nil {
			return nil, loc{}, false
		}
	} else if fa.boundRecv[call] {
		return nil, loc{}, false
	}
	arg := flow.ArgAt(call, i)
	if arg == nil {
		return nil, loc{}, false
	}
	l, ok := fa.ptrLoc(arg)
	if !ok {
		if u, isAddr := ast.Unparen(arg).(*ast.UnaryExpr); isAddr && u.Op == token.AND {
			l, ok = fa.varLoc(u.X) // &buf passed for a *Buffer receiver
		}
	}
	if !ok {
		return arg, loc{}, false
	}
	l.path += path
	return arg, l, true
}

func (fa *funcAnalysis) wrapperCopy(call *ast.CallExpr, fn *types.Func, i int, pc ParamCopy, s *state) {
	var dstArg ast.Expr
	var dl loc
	var ok bool
	if strings.HasPrefix(pc.Dst, "g.") {
		dl, ok = fa.resolveGlobal(call, fn, pc.Dst)
	} else {
		dstArg, dl, ok = fa.resolveRef(call, pc.Dst)
	}
	if !ok || dstArg != nil && strings.Count(pc.Dst, ".") == 0 && fa.isHostMem(dstArg) {
		return
	}
	kindParam := ""
	if pc.Kind != "" {
		k, _, _ := fa.resolveRef(call, pc.Kind)
		if k == nil {
			return
		}
		if ks, ok := fa.kindsOf(k, s); ok {
			d2d, _ := kindOf(hipapi.KindDeviceToDevice)
			def, _ := kindOf(hipapi.KindDefault)
			if ks&(d2d|def) == 0 {
				return // no kind that reaches the wrapper copies device to device
			}
		} else if l, ok := fa.varLoc(fa.stripConversions(k)); ok && fa.paramRef(l) != "" {
			kindParam = fa.paramRef(l)
		} else {
			return
		}
	}
	device := fa.mapDevice(call, pc.Device, s)
	q := queue{kind: onNull, device: device}
	switch pc.Stream {
	case "":
	case "private":
		q = queue{kind: onPrivate, device: device}
	default:
		e, l, ok := fa.resolveRef(call, pc.Stream)
		if !ok {
			q = queue{kind: onPrivate, device: device}
			break
		}
		q = fa.queueOf(e, s)
		if strings.Contains(pc.Stream, ".") {
			q = fa.streamAt(l, nil, s)
		}
	}
	desc := fmt.Sprintf("%s (C.%s)", fn.Name(), pc.API)
	site := fa.site(call, i, desc, pc.API, pc.Async)
	p := &pending{site: site, dsts: fa.withAliases(dl), queue: q, kindParam: kindParam}
	if pc.Peer != "" {
		p.peer = fa.mapDevice(call, pc.Peer, s)
	}
	s.track(site, p)
}

func (fa *funcAnalysis) mapDevice(call *ast.CallExpr, ref string, s *state) string {
	switch {
	case ref == "":
		return s.device
	case strings.HasPrefix(ref, "c:"), ref == unknownDevice:
		return ref
	}
	e, l, ok := fa.resolveRef(call, ref)
	if ok && l.path != "" && strings.Contains(ref, ".") {
		// r.id of the caller's g: the device is g.id, named as the caller
		// names it.
		if pr := fa.paramRef(l); pr != "" {
			return pr
		}
		return "e:" + l.String()
	}
	if ok || e != nil {
		return fa.deviceKey(e)
	}
	return unknownDevice
}

// paramRef names l relative to the function's parameters ("p0.buf", "r"),
// or returns "" when l is not rooted at one.
func (fa *funcAnalysis) paramRef(l loc) string {
	if fa.sig == nil || l.root == nil {
		return ""
	}
	i, ok := flow.ParamIndex(fa.sig, l.root)
	if !ok {
		return ""
	}
	if i == -1 {
		return "r" + l.path
	}
	return fmt.Sprintf("p%d%s", i, l.path)
}

// globalRef names l, memory held in a package-level variable of this
// package (a map of cached buffers written by generated wrappers), for the
// function's callers: "g.buffers[p0]" when the index is parameter 0,
// "g.buffers[\"y\"]" for a constant; "" when an index is something else
// the caller cannot name.
func (fa *funcAnalysis) globalRef(l loc) string {
	v, ok := l.root.(*types.Var)
	if !ok || v.Pkg() != fa.pass.Pkg || v.Parent() != v.Pkg().Scope() || fa.sig == nil {
		return ""
	}
	var b strings.Builder
	b.WriteString("g." + v.Name())
	for _, seg := range pathSegments(l.path) {
		index, isIndex := strings.CutPrefix(seg, "[")
		if !isIndex {
			b.WriteString(seg)
			continue
		}
		index = strings.TrimSuffix(index, "]")
		switch {
		case index == "":
			return ""
		case index[0] == '"' || index[0] == '`' || index[0] >= '0' && index[0] <= '9':
			b.WriteString(seg)
		default:
			i := slices.IndexFunc(paramNames(fa.sig), func(name string) bool { return name == index })
			if i < 0 {
				return ""
			}
			fmt.Fprintf(&b, "[p%d]", i)
		}
	}
	return b.String()
}

func paramNames(sig *types.Signature) []string {
	names := make([]string, sig.Params().Len())
	for i := range names {
		names[i] = sig.Params().At(i).Name()
	}
	return names
}

// resolveGlobal maps a fact's "g.name[p0]" reference to the location in
// the caller: the package-level variable of fn's package, with parameter
// indexes replaced by the caller's arguments as written.
func (fa *funcAnalysis) resolveGlobal(call *ast.CallExpr, fn *types.Func, ref string) (loc, bool) {
	rest := strings.TrimPrefix(ref, "g.")
	end := strings.IndexAny(rest, ".[")
	if end < 0 {
		end = len(rest)
	}
	v, ok := fn.Pkg().Scope().Lookup(rest[:end]).(*types.Var)
	if !ok {
		return loc{}, false
	}
	var path strings.Builder
	for _, seg := range pathSegments(rest[end:]) {
		var i int
		if _, err := fmt.Sscanf(seg, "[p%d]", &i); err == nil && strings.HasPrefix(seg, "[p") {
			arg := flow.ArgAt(call, i)
			if arg == nil {
				return loc{}, false
			}
			seg = "[" + types.ExprString(arg) + "]"
		}
		path.WriteString(seg)
	}
	return loc{root: v, path: path.String()}, true
}

// pathSegments splits a location path into its ".f" and "[i]" parts.
func pathSegments(path string) []string {
	var out []string
	for path != "" {
		end := len(path)
		if path[0] == '[' {
			if j := strings.IndexByte(path, ']'); j >= 0 {
				end = j + 1
			}
		} else if j := strings.IndexAny(path[1:], ".["); j >= 0 {
			end = j + 1
		}
		out = append(out, path[:end])
		path = path[end:]
	}
	return out
}

// nullStreamRef names, in a Synchronizes fact, the null stream of the
// caller's current device.
const nullStreamRef = "null"

func deviceRef(k string) string {
	switch {
	case k == entryDevice:
		return ""
	case strings.HasPrefix(k, "c:"), strings.HasPrefix(k, "p"):
		return k
	}
	return unknownDevice
}

// atExit records what the function leaves its caller on this return.
func (fa *funcAnalysis) atExit(s *state) {
	if !fa.replay || fa.sig == nil {
		return
	}
	fa.exits++
	if fa.exits == 1 {
		fa.exitDevice = s.device
	} else if fa.exitDevice != s.device {
		fa.exitDevice = unknownDevice
	}
	if fa.exits == 1 {
		fa.exitEvOps = slices.Clone(s.evOps)
	} else {
		fa.exitEvOps = slices.DeleteFunc(fa.exitEvOps, func(k string) bool { return !slices.Contains(s.evOps, k) })
	}
	if fa.exits == 1 {
		fa.exitSynced = s.synced
		fa.exitNull = s.nullSynced
		fa.exitStreams = map[loc]bool{}
		for k := range s.syncedStreams {
			fa.exitStreams[k] = true
		}
	} else {
		fa.exitSynced = fa.exitSynced && s.synced
		fa.exitNull = fa.exitNull && s.nullSynced
		for k := range fa.exitStreams {
			if !s.syncedStreams[k] {
				delete(fa.exitStreams, k)
			}
		}
	}
	for _, cp := range fa.pendingCopies(s) {
		if cp.done {
			continue
		}
		site := fa.sites[cp.site]
		for _, d := range cp.dsts {
			ref := fa.paramRef(d)
			if ref == "" {
				ref = fa.globalRef(d)
			}
			if ref == "" {
				continue
			}
			pc := ParamCopy{Dst: ref, Kind: cp.kindParam, API: site.api, Async: site.async}
			if cp.peer != "" {
				pc.Peer = deviceRef(cp.peer)
			}
			switch cp.queue.kind {
			case onNull:
				pc.Device = deviceRef(cp.queue.device)
			case onStream: // the caller knows its stream's device
				if pc.Stream = fa.paramRef(cp.queue.stream); pc.Stream == "" {
					pc.Stream = "private"
				}
			case onPrivate:
				pc.Stream = "private"
				pc.Device = deviceRef(cp.queue.device)
			}
			fa.exitCopies[pc.String()] = pc
		}
	}
}

// goStmt reports goroutines that use a copy's destination while the copy
// may be in flight: they run concurrently with everything after the go
// statement, on whatever thread (and current device) the scheduler picks.
func (fa *funcAnalysis) goStmt(g *ast.GoStmt, s *state) {
	ms := fa.mentions(g.Call)
	var syncAt token.Pos = token.NoPos
	if lit, ok := ast.Unparen(g.Call.Fun).(*ast.FuncLit); ok {
		syncAt = fa.firstSync(lit.Body)
	}
	for _, cp := range fa.pendingCopies(s) {
		if !fa.live(cp) {
			continue
		}
		for _, m := range ms {
			if !cp.has(m.loc, true) {
				continue
			}
			if syncAt.IsValid() && syncAt < m.node.Pos() {
				break
			}
			fa.report(cp, m.node, g, queue{kind: onHost}, m.loc, "the goroutine started here", s)
			break
		}
	}
}

// firstSync returns the position of the first synchronizing call in body.
func (fa *funcAnalysis) firstSync(body *ast.BlockStmt) token.Pos {
	pos := token.NoPos
	ast.Inspect(body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || pos.IsValid() {
			return !pos.IsValid()
		}
		if c := fa.idx.Match(call); c != nil {
			switch c.Func.Role {
			case hipapi.DeviceSync, hipapi.StreamSync, hipapi.EventSync:
				pos = call.Pos()
			}
			return false
		}
		if sy := fa.syncsOf(fa.callee(call)); sy != nil {
			pos = call.Pos()
		}
		return true
	})
	return pos
}

func (fa *funcAnalysis) report(cp *pending, at, anchor ast.Node, q queue, l loc, what string, s *state) {
	if !fa.reporting || !fa.replay {
		return
	}
	site := fa.sites[cp.site]
	check := UnorderedRead
	if site.async {
		check = UnorderedAsyncRead
	}
	key := fmt.Sprintf("%s@%d@%d", check.ID, at.Pos(), cp.site)
	if fa.reported[key] {
		return
	}
	fa.reported[key] = true
	sync := hipapi.Twin("hipDeviceSynchronize", hipapi.FamilyOf(site.api))
	var where string
	switch {
	case what == "the goroutine started here":
		where = "concurrently with the copy"
	case q.kind == onHost:
		where = "on the host"
	case q.kind == onStream && q.known && q.nonBlocking:
		where = "on a non-blocking stream (it does not wait for other streams)"
	case !sameDevice(q.device, cp.queue.device):
		where = fmt.Sprintf("on %s while the copy runs on %s", fa.deviceName(q.device), fa.deviceName(cp.queue.device))
	case q.kind == onStream && cp.queue.kind == onStream:
		where = "on a different stream than the copy's"
	default:
		where = "on a stream that is not ordered after the copy"
	}
	var advice string
	if site.async {
		advice = fmt.Sprintf("synchronize the copy's stream first, or record an event after the copy and make this work wait for it (or call C.%s())", sync)
	} else {
		advice = fmt.Sprintf("the copy returns before the data lands; call C.%s() with the copying device current before the read, or record an event after the copy and wait for it", sync)
	}
	msg := fmt.Sprintf("%s reads %s %s before the device-to-device copy into it by %s is ordered: %s", what, l, where, site.desc, advice)
	related := []diag.Related{{Pos: site.pos, Message: "device-to-device copy issued here"}}
	var fixes []analysis.SuggestedFix
	if fix, ok := fa.syncFix(cp, anchor, sync, s); ok {
		fixes = append(fixes, fix)
	}
	end := at.End()
	if anchor != at {
		end = token.NoPos
	}
	diag.Report(fa.pass, check, at.Pos(), end, msg, related, fixes...)
}

// syncFix offers a device synchronize on its own line before the statement
// holding the read, when the copying device is the current one there and the
// file calls C functions.
func (fa *funcAnalysis) syncFix(cp *pending, anchor ast.Node, sync string, s *state) (analysis.SuggestedFix, bool) {
	none := analysis.SuggestedFix{}
	if s.device != cp.queue.device || s.device == unknownDevice || !fa.fileUsesC(anchor.Pos()) {
		return none, false
	}
	var stmt ast.Stmt
	var block *ast.BlockStmt
	for n := ast.Node(anchor); n != nil; n = fa.parentOf(n) {
		if st, ok := n.(ast.Stmt); ok {
			if b, ok := fa.parentOf(n).(*ast.BlockStmt); ok {
				stmt, block = st, b
				break
			}
		}
	}
	if stmt == nil {
		return none, false
	}
	sitePos := fa.sites[cp.site].pos
	if stmt.Pos() <= sitePos && sitePos < stmt.End() {
		return none, false
	}
	prevEnd := block.Lbrace
	for i, st := range block.List {
		if st == stmt && i > 0 {
			prevEnd = block.List[i-1].End()
		}
	}
	// Raw positions: the edit applies to the analyzed file, whose //line
	// directives map it back to the user's file. (token.File.Line is the
	// adjusted line and must not be used here.)
	tf := fa.pass.Fset.File(stmt.Pos())
	start := fa.pass.Fset.PositionFor(stmt.Pos(), false)
	line := start.Line
	if fa.pass.Fset.PositionFor(prevEnd, false).Line >= line {
		return none, false
	}
	col := start.Column
	at := tf.LineStart(line)
	text := fmt.Sprintf("%sC.%s()\n", strings.Repeat("\t", max(col-1, 0)), sync)
	return analysis.SuggestedFix{
		Message:   fmt.Sprintf("Insert C.%s() before the read", sync),
		TextEdits: []analysis.TextEdit{{Pos: at, End: at, NewText: []byte(text)}},
	}, true
}

// fileUsesC reports whether the file holding pos refers to cgo names, so
// that an inserted C.x() call compiles.
func (fa *funcAnalysis) fileUsesC(pos token.Pos) bool {
	for _, f := range fa.pass.Files {
		if f.FileStart <= pos && pos <= f.FileEnd {
			uses := false
			ast.Inspect(f, func(n ast.Node) bool {
				if id, ok := n.(*ast.Ident); ok && strings.HasPrefix(id.Name, "_C") {
					uses = true
				}
				return !uses
			})
			return uses
		}
	}
	return false
}
