package cgocall_test

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"testing"

	"github.com/hiplint/hiplint/internal/cgocall"
	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
)

// tier3Src is a cgo package as the user wrote it, to be type-checked with
// FakeImportC as the drivers do when cgo fails (tier 3).
const tier3Src = `package p

// #include <cublas_v2.h>
import "C"

import "unsafe"

var kind = C.hipMemcpyDeviceToDevice

func f(dst, src unsafe.Pointer, n int, m C.CUmodule) bool {
	C.hipMemcpy(dst, src, C.size_t(n), C.hipMemcpyDeviceToDevice)
	buf := C.malloc(C.size_t(n))
	C.cuModuleUnload(C.CUmodule(m))
	C.cublasCreate(nil)
	_ = buf
	return C.hipDeviceSynchronize() == C.hipSuccess
}
`

func checkTier3(t *testing.T) (*ast.File, *types.Package, *types.Info) {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", tier3Src, parser.ParseComments)
	require.NoError(t, err)
	info := &types.Info{
		Types: map[ast.Expr]types.TypeAndValue{},
		Defs:  map[*ast.Ident]types.Object{},
		Uses:  map[*ast.Ident]types.Object{},
	}
	conf := types.Config{Importer: importer.Default(), FakeImportC: true}
	pkg, err := conf.Check("p", fset, []*ast.File{f}, info)
	require.NoError(t, err, "FakeImportC accepts any C.x")
	return f, pkg, info
}

// TestTier3Calls: in code type-checked with FakeImportC, C.x(...) is
// recognized by name: runtime calls (with C conversions of their arguments
// seen through), C allocations, the model's constants and their values.
func TestTier3Calls(t *testing.T) {
	f, pkg, info := checkTier3(t)
	assert.True(t, cgocall.Unprocessed(pkg))
	assert.True(t, cgocall.UsesCgo(pkg))
	assert.True(t, cgocall.CallsRuntime(pkg), "no _Cfunc_ names to read: a tier-3 package is not skipped")

	var calls []string
	var args [][]string
	cgocall.Inspect(info, f, func(c *cgocall.Call) bool {
		calls = append(calls, c.Name())
		var as []string
		for _, a := range c.Args {
			as = append(as, types.ExprString(a))
		}
		args = append(args, as)
		return true
	})
	assert.Equal(t, []string{"hipMemcpy", "cuModuleUnload", "hipDeviceSynchronize"}, calls, "C.malloc, C.size_t and cuBLAS are not runtime calls")
	assert.Equal(t, []string{"dst", "src", "n", "C.hipMemcpyDeviceToDevice"}, args[0], "C.size_t(n) is seen through")
	assert.Equal(t, []string{"m"}, args[1], "C.CUmodule(m) is seen through")

	var allocs, consts []string
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			if cgocall.IsCHeapAlloc(info, n) {
				allocs = append(allocs, types.ExprString(n))
			}
		case *ast.SelectorExpr:
			if name, ok := cgocall.ConstName(info, n); ok {
				if v, ok := cgocall.IntValue(info, n); ok {
					consts = append(consts, name+"="+string(rune('0'+v)))
				}
			}
		}
		return true
	})
	assert.Equal(t, []string{"C.malloc(C.size_t(n))"}, allocs)
	assert.Equal(t, []string{"hipMemcpyDeviceToDevice=3", "hipMemcpyDeviceToDevice=3", "hipSuccess=0"}, consts,
		"values come from the model; C.size_t and C.CUmodule are not constants")

	// cgo-processed code has no C selectors: nothing changes there.
	_, ok := cgocall.CSelector(info, ast.NewIdent("C"))
	assert.False(t, ok)
}
