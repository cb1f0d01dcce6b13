package flow

import (
	"go/ast"
	"go/types"
	"strings"
)

// StreamOf says which stream a StreamRef names.
type StreamOf uint8

const (
	NullStream        StreamOf = iota // the null stream (of a device named beside it)
	ParamStream                       // the stream the caller passes at Ref
	PrivateStream                     // a stream the caller cannot see
	blockingStream                    // one it cannot see, created blocking
	nonBlockingStream                 // one it cannot see, created non-blocking
	unknownStream                     // one it cannot see, of unknown flags
)

// StreamRef names, in a summary, the stream a function's work runs on, as
// its callers can see it: the Queue of the function, for its callers, as
// Ref is a location and Sym a device. StreamQueues.ForCaller makes one,
// StreamQueues.Caller maps it back at a call.
type StreamRef struct {
	Of  StreamOf
	Ref Ref
}

func (s StreamRef) String() string {
	if s.Of == ParamStream {
		return s.Ref.String()
	}
	return [...]string{"", "", "private", "blocking", "nonblocking", "unknown"}[s.Of]
}

// OnReceiver reports whether s is a stream the receiver holds, which belongs
// to each implementation of an interface method (Table.Meet leaves it out).
func (s StreamRef) OnReceiver() bool { return s.Of == ParamStream && s.Ref.Param == Receiver }

// ForCaller names q in a summary of the function whose signature is Sig,
// with the device the callers know it by: the null stream of a device
// (Sym.ForCaller), a stream they pass (whose device they know: the zero
// Sym), or one they cannot see, by what is known of its flags.
func (sq StreamQueues) ForCaller(q Queue) (StreamRef, Sym) {
	ref, ok := RefOf(sq.Sig, q.Stream)
	switch {
	case q.Kind == OnNull:
		return StreamRef{}, q.Device.ForCaller()
	case q.Kind == OnStream && ok:
		return StreamRef{Of: ParamStream, Ref: ref}, Sym{}
	case q.Kind == OnStream && q.Known && q.NonBlocking:
		return StreamRef{Of: nonBlockingStream}, q.Device.ForCaller()
	case q.Kind == OnStream && q.Known:
		return StreamRef{Of: blockingStream}, q.Device.ForCaller()
	}
	return StreamRef{Of: unknownStream}, q.Device.ForCaller()
}

// Arg returns the queue of the stream that call passes at ref, while
// device is current and created holds the streams made so far (Of): a
// field path inside an argument (r.s) is looked up by location only.
func (sq StreamQueues) Arg(call *ast.CallExpr, ref Ref, device Sym, created map[Loc]Queue) (Queue, bool) {
	e, l, ok := sq.Ptrs.At(ref, call)
	switch {
	case !ok:
		return Queue{}, false
	case strings.Contains(ref.Path, "."):
		return sq.At(l, nil, created), true
	}
	return sq.Of(e, device, created), true
}

// Caller maps a summary's stream st, of a called function fn, on device (a
// summary's Sym, for a null stream or one the caller cannot see), to the
// caller's queue at call, where current is the caller's current device:
// the null stream of that device, the stream the caller passes (Arg), or a
// stream of fn's own, which the caller cannot see, of the flags st says (a
// PrivateStream is taken as blocking).
func (sq StreamQueues) Caller(call *ast.CallExpr, fn *types.Func, st StreamRef, device, current Sym, created map[Loc]Queue) (Queue, bool) {
	switch st.Of {
	case NullStream:
		return Queue{Kind: OnNull, Device: device.At(sq.Ptrs, sq.Sig, call, current)}, true
	case ParamStream:
		return sq.Arg(call, st.Ref, current, created)
	}
	return Queue{Kind: OnStream, Stream: Loc{Path: "private:" + fn.FullName()}, Device: device.At(sq.Ptrs, sq.Sig, call, current),
		Known: st.Of != unknownStream, NonBlocking: st.Of == nonBlockingStream}, true
}
