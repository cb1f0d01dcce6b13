package memcpysync

import (
	"go/ast"
	"go/types"
	"slices"
	"sort"
	"strings"

	"github.com/hiplint/hiplint/internal/cgocall"
	"github.com/hiplint/hiplint/internal/flow"
	"github.com/hiplint/hiplint/internal/hipapi"
)

// DeviceRead is one read of its caller's memory that a function queues on
// the GPU (a device-to-host copy from it, a kernel launched with it among
// the arguments, a library routine given it) before synchronizing.
type DeviceRead struct {
	Ref string // the memory read: "p0", "r.ptr"
	// Stream is where the read runs: "" the null stream of Device; "p2" or
	// "r.s" a stream the caller passed; "blocking", "nonblocking" or
	// "unknown" a stream the caller cannot see, by its flags.
	Stream string
	Device string // null stream and private streams: "" the caller's current device; "c:1"; "p2"; "?"
}

func (r DeviceRead) String() string {
	s := r.Ref + " on "
	if r.Stream == "" {
		s += "null"
	} else {
		s += r.Stream
	}
	if r.Device != "" {
		s += "@" + r.Device
	}
	return s
}

// DeviceReads is the fact that a function reads memory its caller passed
// on the GPU, on the listed queues. Its callers check each read as if they
// had queued it: ordered after a pending copy or not.
type DeviceReads struct{ Reads []DeviceRead }

func (*DeviceReads) AFact() {}
func (f *DeviceReads) String() string {
	parts := make([]string, len(f.Reads))
	for i, r := range f.Reads {
		parts[i] = r.String()
	}
	return "deviceReads(" + strings.Join(parts, "; ") + ")"
}

// EventOp is an event operation a function makes, on every path that
// returns, on an event (and stream) its caller passed.
type EventOp struct {
	Op     string // "record", "wait" (the stream waits), "sync" (the host waits)
	Event  string // "p0", "r.ev"
	Stream string // record and wait: "" the null stream of the caller's current device, or "p1", "r.s"
}

func (o EventOp) String() string {
	s := o.Op + " " + o.Event
	if o.Op != "sync" {
		if o.Stream == "" {
			s += " on null"
		} else {
			s += " on " + o.Stream
		}
	}
	return s
}

// EventOps is the fact that a function records, waits for or synchronizes
// events its caller passed (ev.Record(s), s.Wait(ev), ev.Sync()).
type EventOps struct{ Ops []EventOp }

func (*EventOps) AFact() {}
func (f *EventOps) String() string {
	parts := make([]string, len(f.Ops))
	for i, o := range f.Ops {
		parts[i] = o.String()
	}
	return "eventOps(" + strings.Join(parts, "; ") + ")"
}

func (c *checker) deviceReadsOf(fn *types.Func) []DeviceRead {
	if fn == nil {
		return nil
	}
	if impls := c.impls.Of(fn); impls != nil {
		// Through an interface: the reads every implementation makes (a
		// Runtime with HIP and CUDA Download methods), receiver parts left
		// out. Implementations are concrete methods (flow.Impls).
		var common []DeviceRead
		for i, impl := range impls {
			var next []DeviceRead
			for _, r := range c.deviceReadsOf(impl) {
				if !refsReceiver(r.Ref) && !refsReceiver(r.Stream) && !refsReceiver(r.Device) &&
					(i == 0 || slices.Contains(common, r)) {
					next = append(next, r)
				}
			}
			common = next
		}
		return common
	}
	if rs, ok := c.devReads[fn]; ok {
		return rs
	}
	var f DeviceReads
	if flow.ImportedFact(c.pass, fn, &f) {
		return f.Reads
	}
	return nil
}

func (c *checker) eventOpsOf(fn *types.Func) []EventOp {
	if fn == nil {
		return nil
	}
	if impls := c.impls.Of(fn); impls != nil {
		var common []EventOp
		for i, impl := range impls {
			var next []EventOp
			for _, o := range c.eventOpsOf(impl) {
				if !refsReceiver(o.Event) && !refsReceiver(o.Stream) && (i == 0 || slices.Contains(common, o)) {
					next = append(next, o)
				}
			}
			common = next
		}
		return common
	}
	if ops, ok := c.evOps[fn]; ok {
		return ops
	}
	var f EventOps
	if flow.ImportedFact(c.pass, fn, &f) {
		return f.Ops
	}
	return nil
}

// noteDeviceRead records, in a summary run, that work on q reads the memory
// at l (or a view of it) that the caller passed.
func (fa *funcAnalysis) noteDeviceRead(l loc, q queue, s *state) {
	if !fa.replay || fa.quietReads || s.synced || fa.sig == nil {
		return
	}
	r := DeviceRead{}
	switch q.kind {
	case onNull:
		r.Device = deviceRef(q.device)
	case onStream:
		if ref := fa.paramRef(q.stream); ref != "" {
			r.Stream = ref
			break
		}
		switch {
		case !q.known:
			r.Stream = "unknown"
		case q.nonBlocking:
			r.Stream = "nonblocking"
		default:
			r.Stream = "blocking"
		}
		r.Device = deviceRef(q.device)
	default:
		r.Stream = "unknown"
		r.Device = deviceRef(q.device)
	}
	for _, a := range fa.withAliases(l) {
		if a.path == "" {
			if t := a.root.Type(); !mayHoldPointer(t) && !isUintptr(t) {
				continue // n in cn := C.int(n): no memory
			}
		}
		if ref := fa.paramRef(a); ref != "" {
			r.Ref = ref
			fa.exitDevReads[r.String()] = r
		}
	}
}

// deviceReadsSummary returns the device reads of the function's parameters,
// sorted.
func (fa *funcAnalysis) deviceReadsSummary() []DeviceRead {
	keys := make([]string, 0, len(fa.exitDevReads))
	for k := range fa.exitDevReads {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([]DeviceRead, len(keys))
	for i, k := range keys {
		out[i] = fa.exitDevReads[k]
	}
	return out
}

// eventOpsSummary returns the event operations made on every return.
func (fa *funcAnalysis) eventOpsSummary() []EventOp {
	if fa.exits == 0 {
		return nil
	}
	var out []EventOp
	for _, k := range fa.exitEvOps {
		if op, ok := parseEventOp(k); ok {
			out = append(out, op)
		}
	}
	return out
}

func parseEventOp(k string) (EventOp, bool) {
	parts := strings.Split(k, "|")
	if len(parts) != 3 {
		return EventOp{}, false
	}
	return EventOp{Op: parts[0], Event: parts[1], Stream: parts[2]}, true
}

// noteEventOp records, for the summary, an event operation on an event the
// caller passed, on a stream the caller can name (or the null stream of the
// device current on entry).
func (fa *funcAnalysis) noteEventOp(op string, ev loc, q *queue, s *state) {
	ref := fa.paramRef(ev)
	if ref == "" {
		return
	}
	stream := ""
	if q != nil {
		switch {
		case q.kind == onNull && q.device == entryDevice:
		case q.kind == onStream && fa.paramRef(q.stream) != "":
			stream = fa.paramRef(q.stream)
		default:
			return
		}
	}
	k := op + "|" + ref + "|" + stream
	if !slices.Contains(s.evOps, k) {
		s.evOps = append(s.evOps, k)
	}
}

// recordEvent: the event completes after the copies ordered before work on q.
func (fa *funcAnalysis) recordEvent(ev loc, q queue, s *state) {
	var sites []int
	for _, cp := range fa.pendingCopies(s) {
		if !cp.done && fa.ordered(cp, q) {
			sites = append(sites, cp.site)
		}
	}
	flow.Put(&s.events, ev, sites)
}

// syncEvent: the host waited for the event.
func (fa *funcAnalysis) syncEvent(ev loc, s *state) {
	for _, i := range s.events[ev] {
		if cp, ok := s.copies[i]; ok {
			cp.done = true
		}
	}
}

// waitEvent: work on q after this waits for the event.
func (fa *funcAnalysis) waitEvent(ev loc, q queue, s *state) {
	k := q.key()
	for _, i := range s.events[ev] {
		if cp, ok := s.copies[i]; ok && !slices.Contains(cp.waited, k) {
			cp.waited = append(cp.waited, k)
		}
	}
}

// callerQueue maps a summary's stream reference to the queue in the caller.
func (fa *funcAnalysis) callerQueue(call *ast.CallExpr, fn *types.Func, stream, device string, s *state) (queue, bool) {
	switch stream {
	case "":
		return queue{kind: onNull, device: fa.mapDevice(call, device, s)}, true
	case "blocking", "nonblocking", "unknown":
		return queue{kind: onStream, stream: loc{path: "private:" + fn.FullName()}, device: fa.mapDevice(call, device, s),
			known: stream != "unknown", nonBlocking: stream == "nonblocking"}, true
	}
	e, l, ok := fa.resolveRef(call, stream)
	if !ok {
		return queue{}, false
	}
	if strings.Contains(stream, ".") {
		return fa.streamAt(l, nil, s), true
	}
	return fa.queueOf(e, s), true
}

// applyDeviceReads checks the reads a called wrapper queues on the GPU.
func (fa *funcAnalysis) applyDeviceReads(call *ast.CallExpr, fn *types.Func, s *state) {
	for _, r := range fa.deviceReadsOf(fn) {
		_, l, ok := fa.resolveRef(call, r.Ref)
		if !ok {
			continue
		}
		q, ok := fa.callerQueue(call, fn, r.Stream, r.Device, s)
		if !ok {
			continue
		}
		fa.deviceRead(l, true, call, q, fn.Name(), s)
	}
}

// applyEventOps applies a called wrapper's event operations of one kind.
func (fa *funcAnalysis) applyEventOps(call *ast.CallExpr, fn *types.Func, ops []EventOp, kinds string, s *state) {
	for _, op := range ops {
		if !strings.Contains(kinds, op.Op) {
			continue
		}
		_, ev, ok := fa.resolveRef(call, op.Event)
		if !ok {
			continue
		}
		if op.Op == "sync" {
			fa.syncEvent(ev, s)
			continue
		}
		q, ok := fa.callerQueue(call, fn, op.Stream, "", s)
		if !ok {
			continue
		}
		switch op.Op {
		case "record":
			fa.recordEvent(ev, q, s)
			fa.noteEventOp("record", ev, &q, s)
		case "wait":
			fa.waitEvent(ev, q, s)
			fa.noteEventOp("wait", ev, &q, s)
		}
	}
}

// notLibrary lists the C functions that are no GPU library routine.
var notLibrary = map[string]bool{
	"malloc": true, "calloc": true, "realloc": true, "free": true, "memset": true,
	"CString": true, "CBytes": true, "strlen": true, "puts": true, "printf": true,
}

// libraryRead handles a call of a C library routine (not the runtime) given
// device memory: it queues its work on the stream among its arguments, or
// on one the caller cannot see (a library handle's).
func (fa *funcAnalysis) libraryRead(call *ast.CallExpr, name string, args []ast.Expr, sig *types.Signature, s *state) {
	if notLibrary[name] || sig.Params().Len() != len(args) {
		return
	}
	q := queue{kind: onStream, stream: loc{path: "library:" + name}, device: s.device}
	for i, a := range args {
		if isStreamType(sig.Params().At(i).Type()) {
			q = fa.queueOf(a, s)
			break
		}
	}
	for i, a := range args {
		t := sig.Params().At(i).Type()
		if isStreamType(t) || !mayHoldPointer(t) && !isUintptr(t) {
			continue
		}
		if l, ok := fa.ptrLoc(a); ok {
			fa.deviceRead(l, true, call, q, "C."+name, s)
		}
	}
}

func isStreamType(t types.Type) bool {
	for _, n := range []string{"hipStream_t", "cudaStream_t", "CUstream"} {
		if cgocall.IsCType(t, n) {
			return true
		}
	}
	// cgo spells a C function's stream parameter as the struct pointer.
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		for _, n := range []string{"struct_ihipStream_t", "struct_CUstream_st"} {
			if cgocall.IsCType(p.Elem(), n) {
				return true
			}
		}
	}
	return false
}

// fieldVar returns the struct field a location's last path segment names,
// walking the root's type (bounded by the path).
func fieldVar(l loc) *types.Var {
	if l.root == nil || l.path == "" {
		return nil
	}
	t := l.root.Type()
	var v *types.Var
	for _, seg := range pathSegments(l.path) {
		name, ok := strings.CutPrefix(seg, ".")
		if !ok {
			return nil
		}
		if p, ok := t.Underlying().(*types.Pointer); ok {
			t = p.Elem()
		}
		st, ok := t.Underlying().(*types.Struct)
		if !ok {
			return nil
		}
		v = nil
		for i := range st.NumFields() {
			if st.Field(i).Name() == name {
				v = st.Field(i)
				break
			}
		}
		if v == nil {
			return nil
		}
		t = v.Type()
	}
	return v
}

// SetsDevice is the fact that a function leaves Device current on every
// path that returns ("c:1", "p0", "r.id"): a SetDevice wrapper, so that a
// kernel its caller launches afterwards runs on that device's null stream.
type SetsDevice struct{ Device string }

func (*SetsDevice) AFact()           {}
func (f *SetsDevice) String() string { return "setsDevice(" + f.Device + ")" }

func (c *checker) setsDeviceOf(fn *types.Func) string {
	if fn == nil || c.impls.Of(fn) != nil {
		return ""
	}
	if d, ok := c.setsDev[fn]; ok {
		return d
	}
	var f SetsDevice
	if flow.ImportedFact(c.pass, fn, &f) {
		return f.Device
	}
	return ""
}

// setsDeviceSummary returns the device the function leaves current on
// every return, when its caller can name it.
func (fa *funcAnalysis) setsDeviceSummary() string {
	d := fa.exitDevice
	if fa.exits == 0 || d == entryDevice || d == unknownDevice {
		return ""
	}
	if !strings.HasPrefix(d, "c:") && !strings.HasPrefix(d, "p") && d != "r" && !strings.HasPrefix(d, "r.") {
		return ""
	}
	if fa.defersSetDevice() {
		return "" // defer C.hipSetDevice(prev): the device is restored at return
	}
	return d
}

// defersSetDevice reports whether the function defers a device switch (or
// a call that switches devices).
func (fa *funcAnalysis) defersSetDevice() bool {
	found := false
	ast.Inspect(fa.fn.Body, func(n ast.Node) bool {
		if found {
			return false
		}
		d, ok := n.(*ast.DeferStmt)
		if !ok {
			return true
		}
		ast.Inspect(d.Call, func(m ast.Node) bool {
			call, ok := m.(*ast.CallExpr)
			if !ok || found {
				return !found
			}
			if c := fa.idx.Match(call); c != nil {
				found = c.Func.Role == hipapi.SetDevice
				return false
			}
			if fn := fa.callee(call); fn != nil && fn.Origin() != fa.fn.Object(fa.info) && fa.setsDeviceOf(fn) != "" {
				found = true
			}
			return !found
		})
		return !found
	})
	return found
}
