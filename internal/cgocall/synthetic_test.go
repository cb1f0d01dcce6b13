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

// synthetic is Go code shaped like cmd/cgo's output, written by hand so that
// these tests run without a C compiler and can hold shapes cgo itself would
// not produce (user variables named like cgo's temporaries, user closures
// that look like wrappers).
const synthetic = `package p

import "unsafe"

type _Ctype_hipError_t uint32
type _Ctype_size_t = uint64

func _Cfunc_hipFree(p0 unsafe.Pointer) _Ctype_hipError_t                         { return 0 }
func _Cfunc_hipMalloc(p0 *unsafe.Pointer, p1 _Ctype_size_t) _Ctype_hipError_t   { return 0 }
func _Cfunc_hipDeviceSynchronize() _Ctype_hipError_t                            { return 0 }
func _Cfunc_free(p0 unsafe.Pointer)                                             {}
func _cgoCheckPointer(interface{}, interface{})                                 {}

func f(p unsafe.Pointer, n _Ctype_size_t) {
	func() _Ctype_hipError_t { _cgo0 := p; _cgoCheckPointer(_cgo0, nil); return _Cfunc_hipFree(_cgo0) }()
	_cgo0 := p
	func() _Ctype_hipError_t { _cgo0 := _cgo0; _cgoCheckPointer(_cgo0, nil); return _Cfunc_hipFree(_cgo0) }()
	func() _Ctype_hipError_t { return _Cfunc_hipDeviceSynchronize() }()
	defer func() { _Cfunc_hipDeviceSynchronize() }()
	func() _Ctype_hipError_t { x := p; return _Cfunc_hipFree(x) }()
	func() _Ctype_hipError_t { _cgoBase0 := &p; _cgo0 := (*unsafe.Pointer)(unsafe.Pointer(_cgoBase0)); var _cgo1 _Ctype_size_t = n; _cgoCheckPointer(_cgoBase0, 0 == 0); return _Cfunc_hipMalloc(_cgo0, _cgo1) }()
	defer func() func() { _cgo0 := p; return func() { _cgoCheckPointer(_cgo0, nil); _Cfunc_free(_cgo0) } }()()
	defer func() func() { _cgo0 := p; return func() { _cgoCheckPointer(_cgo0, nil); _Cfunc_hipFree(_cgo0) } }()()
	_ = _cgo0
}
`

func checkSynthetic(t *testing.T) (*token.FileSet, *ast.File, *types.Info) {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", synthetic, parser.ParseComments)
	require.NoError(t, err)
	info := &types.Info{
		Types: map[ast.Expr]types.TypeAndValue{},
		Defs:  map[*ast.Ident]types.Object{},
		Uses:  map[*ast.Ident]types.Object{},
	}
	_, err = (&types.Config{Importer: importer.Default()}).Check("p", fset, []*ast.File{f}, info)
	require.NoError(t, err)
	return fset, f, info
}

func TestSyntheticInspect(t *testing.T) {
	fset, f, info := checkSynthetic(t)
	type found struct {
		line    int
		call    string
		wrapped bool // Expr is the call of a function literal
	}
	var got []found
	var outerCgo0 types.Object // the user's variable _cgo0 := p in f
	for _, stmt := range f.Decls[len(f.Decls)-1].(*ast.FuncDecl).Body.List {
		if as, ok := stmt.(*ast.AssignStmt); ok && as.Tok == token.DEFINE {
			outerCgo0 = info.Defs[as.Lhs[0].(*ast.Ident)]
		}
	}
	require.NotNil(t, outerCgo0)
	require.Equal(t, "_cgo0", outerCgo0.Name())

	cgocall.Inspect(info, f, func(c *cgocall.Call) bool {
		args := make([]string, len(c.Args))
		for i, a := range c.Args {
			args[i] = types.ExprString(a)
		}
		_, isIdent := c.Expr.Fun.(*ast.Ident)
		got = append(got, found{fset.Position(c.Pos()).Line, callText(c.Name(), args), !isIdent})
		if fset.Position(c.Pos()).Line == 17 {
			// _cgo0 := _cgo0 inside the wrapper copies the user's _cgo0.
			assert.Same(t, outerCgo0, info.Uses[c.Args[0].(*ast.Ident)])
		}
		return true
	})
	assert.Equal(t, []found{
		{15, "hipFree(p)", true},
		{17, "hipFree(_cgo0)", true},
		{18, "hipDeviceSynchronize()", false}, // a user closure, not a wrapper
		{19, "hipDeviceSynchronize()", false},
		{20, "hipFree(x)", false},
		{21, "hipMalloc((*unsafe.Pointer)(unsafe.Pointer(&p)) | n)", true},
		{23, "hipFree(p)", true},
	}, got)
}

func TestSyntheticIsWrapper(t *testing.T) {
	fset, f, info := checkSynthetic(t)
	var got []string
	ast.Inspect(f, func(n ast.Node) bool {
		if lit, ok := n.(*ast.FuncLit); ok {
			pos := fset.Position(lit.Pos())
			got = append(got, pos.String()[len("p.go:"):]+" "+map[bool]string{true: "wrapper", false: "user"}[cgocall.IsWrapper(info, lit)])
		}
		return true
	})
	assert.Equal(t, []string{
		"15:2 wrapper",
		"17:2 wrapper",
		"18:2 user",
		"19:8 user",
		"20:2 user",
		"21:2 wrapper",
		"22:8 wrapper", "22:43 wrapper", // the deferred form's two literals
		"23:8 wrapper", "23:43 wrapper",
	}, got)
}
