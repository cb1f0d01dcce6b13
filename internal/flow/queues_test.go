package flow

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"testing"

	"github.com/hiplint/hiplint/internal/cgocall"
	"github.com/hiplint/hiplint/internal/hipapi"
	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
	"golang.org/x/tools/go/analysis"
)

func TestStreamOrder(t *testing.T) {
	d0, d1 := Sym{Of: ConstSym, N: 0}, Sym{Of: ConstSym, N: 1}
	s, u := Loc{Path: "s"}, Loc{Path: "u"}
	null0, null1 := Queue{Kind: OnNull, Device: d0}, Queue{Kind: OnNull, Device: d1}
	blocking := Queue{Kind: OnStream, Stream: s, Device: d0, Known: true}
	nonBlocking := Queue{Kind: OnStream, Stream: u, Device: d0, Known: true, NonBlocking: true}
	unknown := Queue{Kind: OnStream, Stream: u, Device: Unknown}
	host := Queue{}
	lax, strict := StreamOrder{}, StreamOrder{Strict: true}
	for _, c := range []struct {
		name         string
		w            Queue
		peer         Sym
		q            Queue
		after, stAft bool // lax, strict
		waits, stW   bool
	}{
		{"same null stream", null0, Sym{}, null0, true, true, true, true},
		{"other device's null stream", null0, Sym{}, null1, false, false, false, false},
		{"peer destination's null stream", null0, d1, null1, true, false, true, false},
		{"blocking stream after null", null0, Sym{}, blocking, true, false, false, false},
		{"non-blocking stream after null", null0, Sym{}, nonBlocking, false, false, false, false},
		{"unknown flags after null", null0, Sym{}, unknown, true, false, false, false},
		{"same stream", blocking, Sym{}, blocking, true, true, true, true},
		{"null after blocking stream", blocking, Sym{}, null0, true, false, false, false},
		{"null after non-blocking stream", nonBlocking, Sym{}, null0, false, false, false, false},
		{"other stream", blocking, Sym{}, nonBlocking, false, false, false, false},
		{"host", null0, Sym{}, host, false, false, false, false},
	} {
		assert.Equal(t, c.after, lax.After(c.w, c.peer, c.q), "After: %s", c.name)
		assert.Equal(t, c.stAft, strict.After(c.w, c.peer, c.q), "strict After: %s", c.name)
		assert.Equal(t, c.waits, lax.Waits(c.w, c.peer, c.q), "Waits: %s", c.name)
		assert.Equal(t, c.stW, strict.Waits(c.w, c.peer, c.q), "strict Waits: %s", c.name)
	}
}

func TestQueueKeysAndJoin(t *testing.T) {
	d0 := Sym{Of: ConstSym, N: 0}
	s := Loc{Path: "s"}
	a := Queue{Kind: OnStream, Stream: s, Device: d0, Known: true}
	b := Queue{Kind: OnStream, Stream: s, Device: Unknown, NonBlocking: true}
	assert.Equal(t, a.Key(), b.Key(), "a stream is itself whatever its device")
	assert.False(t, a.Same(b))
	assert.NotEqual(t, Queue{Kind: OnNull, Device: d0}.Key(), Queue{Kind: OnNull, Device: Entry}.Key())
	j := JoinQueues(a, b)
	assert.Equal(t, Queue{Kind: OnStream, Stream: s, Device: Unknown, NonBlocking: true}, j)
}

func TestCreatedQueue(t *testing.T) {
	withFlags, ok := hipapi.Lookup("hipStreamCreateWithFlags")
	require.True(t, ok)
	plain, ok := hipapi.Lookup("hipStreamCreate")
	require.True(t, ok)
	out, nb, zero, v := ast.NewIdent("s"), &ast.BasicLit{Kind: token.INT, Value: "1"}, &ast.BasicLit{Kind: token.INT, Value: "0"}, ast.NewIdent("flags")
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{
		nb:   {Type: types.Typ[types.UntypedInt], Value: constant.MakeInt64(hipapi.NonBlockingStream)},
		zero: {Type: types.Typ[types.UntypedInt], Value: constant.MakeInt64(0)},
	}}
	l, d := Loc{Path: "s"}, Sym{Of: ConstSym, N: 1}
	created := func(f *hipapi.Func, args ...ast.Expr) Queue {
		return CreatedQueue(info, &cgocall.Call{Func: f, Args: args}, l, d)
	}
	blocking := Queue{Kind: OnStream, Stream: l, Device: d, Known: true}
	assert.Equal(t, blocking, created(plain, out))
	assert.Equal(t, blocking, created(withFlags, out, zero))
	nonBlocking := blocking
	nonBlocking.NonBlocking = true
	assert.Equal(t, nonBlocking, created(withFlags, out, nb))
	unknown := blocking
	unknown.Known = false
	assert.Equal(t, unknown, created(withFlags, out, v), "flags in a variable")
}

const queuesSrc = `package p
type _Ctype_struct_ihipStream_t struct{}
type _Ctype_hipStream_t = *_Ctype_struct_ihipStream_t
type _Ctype_hipError_t uint32
func _Cfunc_hipStreamSynchronize(s _Ctype_hipStream_t) _Ctype_hipError_t { return 0 }
type W struct{ s _Ctype_hipStream_t }
func (w *W) handle() _Ctype_hipStream_t { return w.s }
var global _Ctype_hipStream_t
func streams() []_Ctype_hipStream_t { return nil }
func f(w *W, mine _Ctype_hipStream_t) {
	h := w.handle()
	g(nil, mine, w.s, w.handle(), h, global, streams()[0])
}
func g(a ...any) {}
`

// streamsOf type-checks src (which imports C) and returns its pass, the
// pointers (with getters) and provenance of its function f, and f.
func streamsOf(t *testing.T, src string) (*analysis.Pass, *Pointers, *Provenance, *ast.FuncDecl) {
	pass, _ := fakePass(t, src, types.NewPackage("C", "C"))
	res, err := runGetters(pass)
	require.NoError(t, err)
	pass.ResultOf[Getters] = res
	p := &Pointers{Locator: Locator{Info: pass.TypesInfo}}
	p.Call = func(call *ast.CallExpr) (Loc, bool) { return GetterLoc(pass, p, call) }
	f := funcDecl(pass.Files[0], "f")
	x := NewIndex(pass.Fset, pass.Files, pass.TypesInfo)
	prov := ScanProvenance(x, *p, f.Body, func(l Loc) bool { return cgocall.IsStreamType(l.Root.Type()) })
	return pass, p, prov, f
}

func TestStreamQueues(t *testing.T) {
	pass, p, prov, f := streamsOf(t, queuesSrc)
	info := pass.TypesInfo
	sq := StreamQueues{Ptrs: *p, Prov: prov, Flags: func(v *types.Var) (bool, bool) { return v.Name() == "s", v.Name() != "global" }}
	args := f.Body.List[1].(*ast.ExprStmt).X.(*ast.CallExpr).Args
	mine := Loc{Root: info.Defs[f.Type.Params.List[1].Names[0]]}
	d := Sym{Of: ConstSym, N: 2}
	created := map[Loc]Queue{mine: {Kind: OnStream, Stream: mine, Device: d, Known: true}}
	var got []string
	for _, a := range args {
		q := sq.Of(a, d, created)
		got = append(got, fmt.Sprintf("%d %s %s %v %v", q.Kind, q.Stream, q.Device, q.Known, q.NonBlocking))
	}
	assert.Equal(t, []string{
		"1  c:2 false false",           // nil: the null stream of the current device
		"2 mine c:2 true false",        // created here
		"2 w.s ? true true",            // a field of known flags
		"2 w.s ? true true",            // its getter
		"2 w.s ? true true",            // a copy of the getter's result
		"2 global ? false false",       // flags not known
		"2 streams()[0] ? false false", // named as written
	}, got)
}

func TestStreamVarFlags(t *testing.T) {
	src := `package p
import "unsafe"
type _Ctype_hipError_t uint32
type _Ctype_hipStream_t unsafe.Pointer
func _Cfunc_hipStreamCreateWithFlags(p0 *_Ctype_hipStream_t, p1 uint32) _Ctype_hipError_t { return 0 }
type worker struct{ stream, other, both, unknown _Ctype_hipStream_t }
var global _Ctype_hipStream_t
func f(w *worker, flags uint32) {
	_Cfunc_hipStreamCreateWithFlags(&w.stream, 1)
	_Cfunc_hipStreamCreateWithFlags(&w.stream, 1)
	_Cfunc_hipStreamCreateWithFlags(&global, 0)
	_Cfunc_hipStreamCreateWithFlags(&w.both, 0)
	_Cfunc_hipStreamCreateWithFlags(&w.both, 1)
	_Cfunc_hipStreamCreateWithFlags(&w.unknown, flags)
}
`
	pass, _ := fakePass(t, src, types.NewPackage("C", "C"))
	x := NewIndex(pass.Fset, pass.Files, pass.TypesInfo)
	got := map[string]bool{}
	for v, nb := range x.StreamVarFlags(pass.Pkg) {
		got[v.Name()] = nb
	}
	assert.Equal(t, map[string]bool{"stream": true, "global": false}, got, "not both nor unknown; other is never created into")
}
