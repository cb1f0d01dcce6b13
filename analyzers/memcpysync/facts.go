package memcpysync

import (
	"cmp"
	"strconv"
	"strings"

	"github.com/hiplint/hiplint/internal/flow"
)

// ParamCopy is one device-to-device copy a function issues into memory its
// caller passed (Dst) or a package-level variable holds (Global), or into
// memory it returns (Result: Dst.Param is the result's index, Dst.Path the
// path inside it: a tensor it allocates, copies into and returns), and may
// return before it lands.
type ParamCopy struct {
	Dst    flow.Ref
	Result bool
	Global flow.GlobalRef
	ByKind bool // the caller's kind at Kind decides whether it is device-to-device
	Kind   flow.Ref
	// KindMap: how the caller's value at Kind becomes the runtime's kind
	// (a library's own enum translated by a helper); zero: it is the
	// runtime's kind.
	KindMap KindMap
	Stream  flow.StreamRef // NullStream, ParamStream or PrivateStream
	Device  flow.Sym       // the null stream's and private stream's device
	Peer    flow.Sym       // peer copies: the destination device
	API     string         // the runtime function that copies
	Async   bool           // an explicit async form (HL1002)
}

func (c ParamCopy) String() string {
	dst, kind := c.Dst.String(), ""
	if !c.Global.IsZero() {
		dst = c.Global.String()
	} else if c.Result {
		dst = "res" + strconv.Itoa(c.Dst.Param) + c.Dst.Path
	}
	if c.ByKind {
		kind = c.Kind.String() + c.KindMap.String()
	}
	return flow.FactText(" ", "%s", c.API, "dst=%s", dst, "kind=%s", kind, "stream=%s", c.Stream.String(),
		"device=%s", c.Device.String(), "peer=%s", c.Peer.String())
}

// DeviceRead is one read of its caller's memory at Ref that a function
// queues on the GPU (a device-to-host copy from it, a kernel launched with
// it among the arguments, a library routine given it) before synchronizing,
// on Stream (NullStream: the null stream of Device).
type DeviceRead struct {
	Ref    flow.Ref
	Stream flow.StreamRef
	Device flow.Sym
}

func (r DeviceRead) String() string {
	return flow.FactText("", "%s", r.Ref.String(), " on %s", cmp.Or(r.Stream.String(), "null"), "@%s", r.Device.String())
}

// EventOpKind is what an event operation does.
type EventOpKind uint8

const (
	Record    EventOpKind = iota // record the event on Stream
	Wait                         // make Stream wait for the event
	SyncEvent                    // the host waits for the event
)

// EventOp is an event operation a function makes, on every path that
// returns, on an event (and stream: NullStream or ParamStream) its caller
// passed.
//
// A record on an event the function returns (Result: Event.Param is the
// result's index, Event.Path the path in it; an async copy helper that
// returns the event it recorded after the copy) is made on every return
// that gives the result a value, after the function's copies.
type EventOp struct {
	Op     EventOpKind
	Event  flow.Ref
	Stream flow.StreamRef
	Result bool
}

func (o EventOp) String() string {
	on := ""
	if o.Op != SyncEvent {
		on = cmp.Or(o.Stream.String(), "null")
	}
	ev := o.Event.String()
	if o.Result {
		ev = "res" + strconv.Itoa(o.Event.Param) + o.Event.Path
	}
	return flow.FactText("", "%s", [...]string{"record", "wait", "sync"}[o.Op], " %s", ev, " on %s", on)
}

// Summary is the fact of what a function does, to the memory, streams,
// events and devices its caller passes, that its callers are checked with
// as if they did it themselves.
type Summary struct {
	// Copies: device-to-device copies into memory the caller passed (or a
	// package-level variable holds) that may land after the return.
	Copies []ParamCopy
	// On every path that returns, the caller's current device
	// (SyncDevice), the null stream of its current device (SyncNull: a
	// blocking device-to-host copy on it) and the streams passed at
	// SyncStreams are synchronized.
	SyncDevice  bool
	SyncNull    bool
	SyncStreams []flow.Ref
	// Reads: the memory of its parameters (Param -1: the receiver) it
	// reads on the host without synchronizing first: all of it (Path "")
	// or what a path inside it holds (r.free of a pool's put, reading
	// p.free[b.n]), so that a caller's copy into another field (b.ptr) is
	// not read by the call.
	Reads []flow.Ref
	// DeviceReads: the reads of the caller's memory it queues on the GPU.
	DeviceReads []DeviceRead
	// EventOps: the event operations it makes, on every path that returns,
	// on events the caller passed (ev.Record(s), s.Wait(ev), ev.Sync()).
	EventOps []EventOp
	// SetsDevice: the device it leaves current on every path that returns
	// (a SetDevice wrapper), so that a kernel its caller launches afterwards
	// runs on that device's null stream; the zero Sym when none.
	SetsDevice flow.Sym
}

func (*Summary) AFact() {}
func (f *Summary) String() string {
	var syncs []string
	if f.SyncDevice {
		syncs = append(syncs, "device")
	}
	if f.SyncNull {
		syncs = append(syncs, "null")
	}
	reads := ""
	if len(f.Reads) > 0 {
		rs := make([]string, len(f.Reads))
		for i, r := range f.Reads {
			rs[i] = strconv.Itoa(r.Param) + r.Path
		}
		reads = "[" + strings.Join(rs, " ") + "]"
	}
	return flow.FactText(" ", "copiesInto(%s)", flow.JoinText(f.Copies, "; "), "synchronizes(%s)", flow.JoinText(append(syncs, flow.JoinText(f.SyncStreams, ", ")), ", "),
		"readsParams%s", reads, "deviceReads(%s)", flow.JoinText(f.DeviceReads, "; "), "eventOps(%s)", flow.JoinText(f.EventOps, "; "),
		"setsDevice(%s)", f.SetsDevice.String())
}
