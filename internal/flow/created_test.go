package flow

import (
	"go/types"
	"testing"

	"github.com/hiplint/hiplint/internal/cgocall"
	"github.com/hiplint/hiplint/internal/hipapi"
	"github.com/hiplint/hiplint/internal/testenv/assert"
)

func TestCreatedInto(t *testing.T) {
	src := `package p
import "unsafe"
type _Ctype_hipError_t uint32
type _Ctype_hipStream_t unsafe.Pointer
func _Cfunc_hipStreamCreateWithFlags(p0 *_Ctype_hipStream_t, p1 uint32) _Ctype_hipError_t { return 0 }
type worker struct{ stream _Ctype_hipStream_t }
var global _Ctype_hipStream_t
func f(w *worker) {
	var local _Ctype_hipStream_t
	_Cfunc_hipStreamCreateWithFlags(&w.stream, 1)
	_Cfunc_hipStreamCreateWithFlags(&global, 0)
	_Cfunc_hipStreamCreateWithFlags(&local, 1)
}
`
	pass, _ := fakePass(t, src, types.NewPackage("C", "C"))
	x := NewIndex(pass.Fset, pass.Files, pass.TypesInfo)
	var got []string
	x.CreatedInto(pass.Pkg, hipapi.StreamCreate, func(v *types.Var, c *cgocall.Call) {
		flags, _ := cgocall.IntValue(pass.TypesInfo, c.Arg(c.Func.Flags))
		got = append(got, v.Name()+map[int64]string{0: " blocking", 1: " non-blocking"}[flags])
	})
	assert.Equal(t, []string{"stream non-blocking", "global blocking"}, got, "not the local")
	x.CreatedInto(pass.Pkg, hipapi.EventCreate, func(*types.Var, *cgocall.Call) { t.Error("no event is created") })
}
