package flow

import (
	"go/types"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
)

func TestLibraryArgs(t *testing.T) {
	src := `package p
import "unsafe"
type _Ctype_struct_ihipStream_t struct{}
type _Ctype_hipStream_t = *_Ctype_struct_ihipStream_t
type _Ctype_int int32
func gemm(h unsafe.Pointer, n _Ctype_int, a, b uintptr, s _Ctype_hipStream_t, t *_Ctype_struct_ihipStream_t) {}
func scal(n _Ctype_int, x unsafe.Pointer) {}
func malloc(n uint64) unsafe.Pointer { return nil }
`
	pkg := check(t, src).pkg
	sig := func(name string) *types.Signature { return pkg.Scope().Lookup(name).Type().(*types.Signature) }

	stream, memory, ok := libraryArgs("hipblasSgemm", sig("gemm"), 6)
	assert.True(t, ok)
	assert.Equal(t, 4, stream, "the first stream argument")
	assert.Equal(t, []int{0, 2, 3}, memory, "pointers and uintptrs, not the int nor the streams")

	stream, memory, ok = libraryArgs("hipblasSscal", sig("scal"), 2)
	assert.True(t, ok)
	assert.Equal(t, -1, stream, "no stream: the handle's own")
	assert.Equal(t, []int{1}, memory)

	_, _, ok = libraryArgs("hipblasSscal", sig("scal"), 3)
	assert.False(t, ok, "arguments that do not match the parameters")
	_, _, ok = libraryArgs("malloc", sig("malloc"), 1)
	assert.False(t, ok, "libc")
}
