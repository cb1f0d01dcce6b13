package cgocall_test

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"testing"

	"github.com/hiplint/hiplint/internal/cgocall"
	"github.com/hiplint/hiplint/internal/hipapi"
	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
)

func TestCTypesAndLibc(t *testing.T) {
	src := `package p
import "unsafe"
type _Ctype_struct_ihipStream_t struct{}
type _Ctype_hipStream_t = *_Ctype_struct_ihipStream_t
type _Ctype_CUdeviceptr uint64
type _Ctype_int int32
func _Cfunc_malloc(n uint64) unsafe.Pointer { return nil }
var s _Ctype_hipStream_t
var raw *_Ctype_struct_ihipStream_t
var d _Ctype_CUdeviceptr
var n _Ctype_int
var p = _Cfunc_malloc(8)
var q = f(8)
func f(n uint64) unsafe.Pointer { return nil }
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	require.NoError(t, err)
	pkg, err := (&types.Config{Importer: importer.Default()}).Check("p", fset, []*ast.File{f}, nil)
	require.NoError(t, err)
	typ := func(name string) types.Type { return pkg.Scope().Lookup(name).Type() }
	assert.True(t, cgocall.IsStreamType(typ("s")))
	assert.True(t, cgocall.IsStreamType(typ("raw")), "cgo spells a stream parameter as the struct pointer")
	assert.False(t, cgocall.IsStreamType(typ("d")))
	assert.True(t, cgocall.IsDevicePtrType(typ("d")))
	assert.False(t, cgocall.IsDevicePtrType(typ("n")))

	var calls []*ast.CallExpr
	ast.Inspect(f, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok {
			calls = append(calls, c)
		}
		return true
	})
	require.Len(t, calls, 2)
	assert.True(t, cgocall.IsHostAlloc(calls[0]))
	assert.False(t, cgocall.IsHostAlloc(calls[1]))

	assert.Equal(t, []int{1}, cgocall.HostReads("memcpy"))
	assert.Equal(t, []int{0, 1}, cgocall.HostReads("memcmp"))
	assert.Equal(t, []int{0}, cgocall.HostReads("GoBytes"))
	assert.Nil(t, cgocall.HostReads("cublasSgemm"))
	assert.True(t, cgocall.IsLibc("free"))
	assert.False(t, cgocall.IsLibc("cublasSgemm"))

	// DefaultStream: nil, 0 and their conversions are the null stream; an
	// absent argument too; a variable is neither default stream.
	ds, err := parser.ParseFile(fset, "ds.go", `package p
import "unsafe"
type _Ctype_hipStream_t unsafe.Pointer
var s _Ctype_hipStream_t
var a, b, c, d = _Ctype_hipStream_t(nil), _Ctype_hipStream_t(unsafe.Pointer(nil)), 0, s
`, 0)
	require.NoError(t, err)
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Uses: map[*ast.Ident]types.Object{}, Defs: map[*ast.Ident]types.Object{}}
	_, err = (&types.Config{Importer: importer.Default()}).Check("p", fset, []*ast.File{ds}, info)
	require.NoError(t, err)
	vals := ds.Decls[len(ds.Decls)-1].(*ast.GenDecl).Specs[0].(*ast.ValueSpec).Values
	for i, want := range []hipapi.ConstRole{hipapi.NullStream, hipapi.NullStream, hipapi.NullStream, hipapi.NoConst} {
		assert.Equal(t, want, cgocall.DefaultStream(info, vals[i]), types.ExprString(vals[i]))
	}
	assert.Equal(t, hipapi.NullStream, cgocall.DefaultStream(info, nil))

	// FileUsesC: the file refers to cgo names (_Cfunc_malloc); one that
	// does not, or a position outside every file, does not.
	assert.True(t, cgocall.FileUsesC([]*ast.File{f}, calls[0].Pos()))
	g, err := parser.ParseFile(fset, "g.go", "package p\nvar x = 1\n", 0)
	require.NoError(t, err)
	assert.False(t, cgocall.FileUsesC([]*ast.File{f, g}, g.Decls[0].Pos()))
	assert.False(t, cgocall.FileUsesC([]*ast.File{f}, token.NoPos))
}
