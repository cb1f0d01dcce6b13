package flow

import (
	"fmt"
	"go/ast"
	"go/types"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
)

const streamRefSrc = `package p
type _Ctype_struct_ihipStream_t struct{}
type _Ctype_hipStream_t = *_Ctype_struct_ihipStream_t
type W struct{ s _Ctype_hipStream_t }
func (w *W) handle() _Ctype_hipStream_t { return w.s }
func callee(w *W, s _Ctype_hipStream_t, dev int) {}
func f(w *W, mine _Ctype_hipStream_t, dev int) {
	h := w.handle()
	callee(w, h, 3)
}
`

func TestStreamRefString(t *testing.T) {
	var got []string
	for _, s := range []StreamRef{{}, {Of: ParamStream, Ref: Ref{Param: 1}}, {Of: ParamStream, Ref: Ref{Param: Receiver, Path: ".s"}},
		{Of: PrivateStream}, {Of: blockingStream}, {Of: nonBlockingStream}, {Of: unknownStream}} {
		got = append(got, fmt.Sprintf("%q %v", s.String(), s.OnReceiver()))
	}
	assert.Equal(t, []string{`"" false`, `"p1" false`, `"r.s" true`, `"private" false`, `"blocking" false`,
		`"nonblocking" false`, `"unknown" false`}, got)
}

// TestStreamQueuesForCallerAndBack: a function's queues named for its
// callers, and a summary's streams mapped back to a caller's queues.
func TestStreamQueuesForCallerAndBack(t *testing.T) {
	pass, p, prov, f := streamsOf(t, streamRefSrc)
	info := pass.TypesInfo
	sig := info.Defs[f.Name].(*types.Func).Signature()
	sq := StreamQueues{Ptrs: *p, Prov: prov, Sig: sig, Flags: func(v *types.Var) (bool, bool) { return true, v.Name() == "s" }}
	w, mine := sig.Params().At(0), sig.Params().At(1)
	d1 := Sym{Of: ConstSym, N: 1}

	var named []string
	for _, q := range []Queue{
		{Kind: OnNull, Device: Entry},
		{Kind: OnNull, Device: d1},
		{Kind: OnStream, Stream: Loc{Root: mine}, Device: d1},
		{Kind: OnStream, Stream: Loc{Root: w, Path: ".s"}},
		{Kind: OnStream, Stream: Loc{Path: "local"}, Device: d1, Known: true, NonBlocking: true},
		{Kind: OnStream, Stream: Loc{Path: "local"}, Device: d1, Known: true},
		{Kind: OnStream, Stream: Loc{Path: "local"}, Device: Sym{Of: ExprSym, Expr: "d"}},
		{Kind: OnPrivate, Device: d1},
	} {
		st, dev := sq.ForCaller(q)
		named = append(named, fmt.Sprintf("%d %q %s", st.Of, st, dev))
	}
	assert.Equal(t, []string{
		`0 "" `,               // the caller's own null stream
		`0 "" c:1`,            // device 1's
		`1 "p1" `,             // a stream the caller passes: it knows the device
		`1 "p0.s" `,           // a field of an argument
		`4 "nonblocking" c:1`, // one of its own, by its flags
		`3 "blocking" c:1`,
		`5 "unknown" ?`,   // of unknown flags, on a device the caller cannot name
		`5 "unknown" c:1`, // nothing the caller can see
	}, named)

	call := f.Body.List[1].(*ast.ExprStmt).X.(*ast.CallExpr)
	callee := info.Uses[call.Fun.(*ast.Ident)].(*types.Func)
	cur := Sym{Of: ConstSym, N: 7}
	var back []string
	for _, c := range []struct {
		st  StreamRef
		dev Sym
	}{
		{StreamRef{}, Sym{}},
		{StreamRef{}, Sym{Of: ParamSym, Ref: Ref{Param: 2}}},
		{StreamRef{Of: ParamStream, Ref: Ref{Param: 0, Path: ".s"}}, Sym{}},
		{StreamRef{Of: ParamStream, Ref: Ref{Param: 1}}, Sym{}}, // h: a copy of w.s
		{StreamRef{Of: ParamStream, Ref: Ref{Param: 5}}, Sym{}}, // no such argument
		{StreamRef{Of: PrivateStream}, d1},
		{StreamRef{Of: nonBlockingStream}, Sym{}},
		{StreamRef{Of: unknownStream}, Sym{}},
	} {
		q, ok := sq.Caller(call, callee, c.st, c.dev, cur, nil)
		back = append(back, fmt.Sprintf("%v %d %s %s %v %v", ok, q.Kind, q.Stream, q.Device, q.Known, q.NonBlocking))
	}
	assert.Equal(t, []string{
		"true 1  c:7 false false", // the caller's current device's null stream
		"true 1  c:3 false false", // the device it passes
		"true 2 w.s ? true true",  // its field, of the flags the field holds
		"true 2 w.s ? true true",  // h is w.handle(): w.s
		"false 0   false false",
		"true 2 private:p.callee c:1 true false", // a private stream counts as blocking
		"true 2 private:p.callee c:7 true true",
		"true 2 private:p.callee c:7 false false",
	}, back)
}
