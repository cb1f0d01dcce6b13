package flow

import (
	"go/ast"
	"go/types"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
)

// TestLibraryQueue: a library routine runs on the stream it is given, or
// on its handle's own; libc is no library routine.
func TestLibraryQueue(t *testing.T) {
	c := check(t, `package p
import "unsafe"
type _Ctype_struct_ihipStream_t struct{}
type _Ctype_hipStream_t = *_Ctype_struct_ihipStream_t
type _Ctype_int int32
func gemm(h unsafe.Pointer, n _Ctype_int, a, b uintptr, s _Ctype_hipStream_t) {}
func scal(n _Ctype_int, x unsafe.Pointer) {}
func malloc(n uint64) unsafe.Pointer { return nil }
func f(h, x unsafe.Pointer, a, b uintptr, s _Ctype_hipStream_t) {
	gemm(h, 4, a, b, s)
	scal(4, x)
	malloc(8)
}
`)
	sig := func(name string) *types.Signature { return c.pkg.Scope().Lookup(name).Type().(*types.Signature) }
	body := funcDecl(c.file, "f").Body
	args := func(i int) []ast.Expr { return body.List[i].(*ast.ExprStmt).X.(*ast.CallExpr).Args }
	s := Loc{Root: sig("f").Params().At(4)}
	d := Sym{Of: ConstSym, N: 1}
	created := map[Loc]Queue{s: {Kind: OnStream, Stream: s, Device: d, Known: true, NonBlocking: true}}
	sq := StreamQueues{Ptrs: Pointers{Locator: Locator{Info: c.info}}}

	q, memory, ok := sq.Library("hipblasSgemm", sig("gemm"), args(0), Entry, created)
	assert.True(t, ok)
	assert.Equal(t, created[s], q, "the stream it is given")
	assert.Equal(t, []int{0, 2, 3}, memory)

	q, memory, ok = sq.Library("hipblasSscal", sig("scal"), args(1), d, created)
	assert.True(t, ok)
	assert.Equal(t, Queue{Kind: OnStream, Stream: Loc{Path: "library:hipblasSscal"}, Device: d}, q, "its handle's stream, on the current device")
	assert.Equal(t, []int{1}, memory)

	_, _, ok = sq.Library("malloc", sig("malloc"), args(2), d, created)
	assert.False(t, ok, "libc")
}
