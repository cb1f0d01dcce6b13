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

const attrsSrc = `package p

type _Ctype_hipError_t uint32
type _Ctype_int = int32
type _Ctype_hipDeviceAttribute_t uint32

const _Ciconst_hipDeviceAttributePageableMemoryAccess = 65
const _Ciconst_hipDeviceAttributeManagedMemory = 47

func _Cfunc_hipDeviceGetAttribute(p0 *_Ctype_int, p1 _Ctype_hipDeviceAttribute_t, p2 _Ctype_int) _Ctype_hipError_t { return 0 }

func f() {
	var v _Ctype_int
	_Cfunc_hipDeviceGetAttribute(&v, _Ciconst_hipDeviceAttributePageableMemoryAccess, 0)
	_Cfunc_hipDeviceGetAttribute(&v, 65, 0)
	_Cfunc_hipDeviceGetAttribute(&v, _Ciconst_hipDeviceAttributeManagedMemory, 0)
	_Cfunc_hipDeviceGetAttribute(&v, 3, 0)
}
`

func TestDeviceAttr(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", attrsSrc, 0)
	require.NoError(t, err)
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{},
		Uses: map[*ast.Ident]types.Object{}}
	_, err = (&types.Config{Importer: importer.Default()}).Check("p", fset, []*ast.File{f}, info)
	require.NoError(t, err)
	var got []string
	cgocall.Inspect(info, f, func(c *cgocall.Call) bool {
		k, ok := cgocall.DeviceAttr(info, c)
		if !ok {
			got = append(got, "-")
			return true
		}
		got = append(got, k.Name)
		assert.Contains(t, []hipapi.ConstRole{hipapi.PageableAttr, hipapi.ManagedAttr}, k.Role)
		return true
	})
	assert.Equal(t, []string{"hipDeviceAttributePageableMemoryAccess", "hipDeviceAttributePageableMemoryAccess",
		"hipDeviceAttributeManagedMemory", "-"}, got, "by name, by value; an attribute the model does not know is none")
}
