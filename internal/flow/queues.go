package flow

import (
	"go/ast"
	"go/types"

	"github.com/hiplint/hiplint/internal/cgocall"
	"github.com/hiplint/hiplint/internal/hipapi"
)

// QueueKind says where work runs.
type QueueKind uint8

const (
	OnHost    QueueKind = iota // the host thread itself
	OnNull                     // the null (legacy default) stream of Device
	OnStream                   // the stream handle at Stream
	OnPrivate                  // a stream a wrapper's caller cannot see
)

// Queue is where work runs in the HIP/CUDA stream model: on the host, on a
// device's null stream, or on a stream handle (named by its location),
// with what is known of the stream's device and creation flags.
type Queue struct {
	Kind        QueueKind
	Stream      Loc  // OnStream
	Device      Sym  // of the null stream or the stream
	Known       bool // OnStream: whether its creation flags are known
	NonBlocking bool // created non-blocking (it does not wait for the null stream)
}

// QueueKey identifies a queue: the same stream whatever its device is known
// to be. Analyzers key "queues made to wait" by it.
type QueueKey struct {
	Kind   QueueKind
	Stream Loc
	Device Sym
}

// Key returns q's identity.
func (q Queue) Key() QueueKey {
	switch q.Kind {
	case OnStream:
		return QueueKey{Kind: OnStream, Stream: q.Stream}
	case OnHost:
		return QueueKey{}
	}
	return QueueKey{Kind: q.Kind, Device: q.Device}
}

// Same reports whether q and r are the same queue on the same device.
func (q Queue) Same(r Queue) bool {
	return q.Kind == r.Kind && q.Device == r.Device && (q.Kind != OnStream || q.Stream == r.Stream)
}

// JoinQueues merges what two paths know of the same stream handle: its
// device when both agree, its flags when both know them.
func JoinQueues(q, r Queue) Queue {
	if q.Device != r.Device {
		q.Device = Unknown
	}
	q.NonBlocking, q.Known = q.NonBlocking || r.NonBlocking, q.Known && r.Known
	return q
}

// defaultQueue returns the queue of a stream argument e that names a
// default stream (cgocall.DefaultStream): the null stream of device, or
// the per-thread default stream, which behaves as a blocking stream; ok is
// false for any other stream.
func defaultQueue(info *types.Info, e ast.Expr, device Sym) (Queue, bool) {
	switch cgocall.DefaultStream(info, e) {
	case hipapi.NullStream:
		return Queue{Kind: OnNull, Device: device}, true
	case hipapi.PerThreadStream:
		return Queue{Kind: OnStream, Stream: Loc{Path: "per-thread"}, Device: device, Known: true}, true
	}
	return Queue{}, false
}

// StreamOrder is the ordering the runtime gives work on different queues
// without events or synchronization: a stream runs its work in order; the
// null stream of a device waits for that device's blocking streams and
// they for it (implicit synchronization); a non-blocking stream waits for
// neither. Strict leaves out what only the implicit default-stream
// semantics give (blocking streams, a peer copy's destination null
// stream, streams of unknown flags), which depend on how the program was
// built (per-thread default streams) and on the runtime.
type StreamOrder struct{ Strict bool }

// After reports whether work on q runs after work issued earlier on w by
// stream order alone. peer, for a peer copy on w, is its destination
// device (CallerSym when not known), whose null stream it also orders
// outside Strict. Work on the host is never ordered this way.
func (o StreamOrder) After(w Queue, peer Sym, q Queue) bool {
	switch {
	case q.Kind == OnHost:
		return false
	case w.Kind == OnNull && q.Kind == OnNull:
		return w.Device.Same(q.Device) || !o.Strict && peer.Of != CallerSym && peer.Same(q.Device)
	case w.Kind == OnNull:
		if o.Strict || q.Kind != OnStream {
			return false
		}
		// A stream of unknown flags gets the benefit of the doubt.
		return !q.Known || !q.NonBlocking && w.Device.Same(q.Device)
	case w.Kind == OnStream && q.Kind == OnStream && q.Stream == w.Stream:
		return true
	case w.Kind == OnStream && q.Kind == OnNull && !o.Strict:
		return !(w.Known && w.NonBlocking) && w.Device.Same(q.Device)
	}
	return false
}

// Waits reports whether the host, synchronizing queue q (a stream
// synchronize), waits for work issued on w: the same stream, the same
// device's null stream, or, outside Strict, the null stream of a peer
// copy's destination device.
func (o StreamOrder) Waits(w Queue, peer Sym, q Queue) bool {
	switch {
	case q.Kind == OnNull && w.Kind == OnNull:
		return w.Device.Same(q.Device) || peer.Of != CallerSym && !o.Strict && peer.Same(q.Device)
	case q.Kind == OnStream && w.Kind == OnStream:
		return w.Stream == q.Stream
	}
	return false
}

// CreatedQueue returns the queue of the stream that a stream-creating call
// c (hipapi.StreamCreate) creates into the handle at l while device is
// current: blocking without flags, non-blocking when its constant flags
// hold the non-blocking flag, of unknown flags (Known false) when they are
// not a constant.
func CreatedQueue(info *types.Info, c *cgocall.Call, l Loc, device Sym) Queue {
	q := Queue{Kind: OnStream, Stream: l, Device: device, Known: true}
	if flags := c.Arg(c.Func.Flags); flags != nil {
		v, ok := cgocall.IntValue(info, flags)
		q.Known, q.NonBlocking = ok, ok && v&hipapi.NonBlockingStream != 0
	}
	return q
}

// StreamQueues resolves stream arguments to queues in one function.
type StreamQueues struct {
	Ptrs Pointers
	// Prov, when not nil, names the handle a one-assignment copy of a
	// stream handle copies (h := s.handle(): h is s.h's stream).
	Prov *Provenance
	// Flags, when not nil, says what is known of the flags of the streams
	// a field or package-level variable holds (created everywhere with the
	// same flags): ok false when nothing is.
	Flags func(v *types.Var) (nonBlocking, ok bool)
	// LibStreams, when not nil, maps a struct field holding a GPU library
	// handle to the field of the same value holding the stream the package
	// binds it to (Index.LibraryStreamFields).
	LibStreams map[*types.Var]*types.Var
	// Sig is the function's signature, for its summaries (ForCaller,
	// Caller); nil names no parameter.
	Sig *types.Signature
}

// Of returns the queue that work given stream argument e runs on, while
// device is current and created holds the streams the function created so
// far, by handle: a default stream (DefaultQueue), a created stream, the
// stream at the location e names (a getter's call s.handle() names the
// field it returns), or a stream named by e as written, of unknown device.
func (sq StreamQueues) Of(e ast.Expr, device Sym, created map[Loc]Queue) Queue {
	if q, ok := defaultQueue(sq.Ptrs.Info, e, device); ok {
		return q
	}
	x := StripConversions(sq.Ptrs.Info, e)
	l, ok := sq.Ptrs.Locator.Of(x)
	if !ok {
		if call, isCall := x.(*ast.CallExpr); isCall {
			if gl, gok := sq.Ptrs.Of(call); gok {
				return sq.At(gl, nil, created)
			}
		}
		return Queue{Kind: OnStream, Stream: Loc{Path: types.ExprString(x)}, Device: Unknown}
	}
	if _, ok := created[l]; !ok && sq.Prov != nil {
		if from, ok := sq.Prov.CopyOf(l); ok {
			return sq.At(from, nil, created)
		}
	}
	return sq.At(l, x, created)
}

// At returns the queue of the stream handle at l: the one created there,
// or one of unknown device whose flags are those its field or package
// variable (of e when given, as written; else l's field) is known to hold.
func (sq StreamQueues) At(l Loc, e ast.Expr, created map[Loc]Queue) Queue {
	if q, ok := created[l]; ok {
		return q
	}
	q := Queue{Kind: OnStream, Stream: l, Device: Unknown}
	v := fieldOf(l)
	if e != nil {
		v = fieldOrGlobal(sq.Ptrs.Info, e)
	}
	if v != nil && sq.Flags != nil {
		q.NonBlocking, q.Known = sq.Flags(v)
	}
	return q
}

// StreamVarFlags returns, for the struct fields and package-level variables
// of pkg that streams are created into (Index.CreatedInto), whether the
// streams they hold are non-blocking: those that every creation makes with
// the same known flags, so that w.stream is known to be non-blocking in
// every method; a variable created into with different or unknown flags is
// left out. For StreamQueues.Flags (and facts, for importers).
func (x *Index) StreamVarFlags(pkg *types.Package) map[*types.Var]bool {
	out, mixed := map[*types.Var]bool{}, map[*types.Var]bool{}
	x.CreatedInto(pkg, hipapi.StreamCreate, func(v *types.Var, c *cgocall.Call) {
		q := CreatedQueue(x.info, c, Loc{}, Unknown)
		if nb, seen := out[v]; !q.Known || seen && nb != q.NonBlocking {
			mixed[v] = true
		}
		out[v] = q.NonBlocking
	})
	for v := range mixed {
		delete(out, v)
	}
	return out
}
