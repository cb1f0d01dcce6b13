package flow

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

// indexSrc is shaped like cgo's output (see cgocall's synthetic test): a
// direct call, a pointer-checking wrapper, a user closure run in place and
// one deferred.
const indexSrc = `package p

import "unsafe"

type _Ctype_hipError_t uint32

func _Cfunc_hipFree(p0 unsafe.Pointer) _Ctype_hipError_t  { return 0 }
func _Cfunc_hipDeviceSynchronize() _Ctype_hipError_t     { return 0 }
func _cgoCheckPointer(interface{}, interface{})          {}
func do(f func())                                        { f() }

func f(p unsafe.Pointer) {
	_Cfunc_hipDeviceSynchronize()
	func() _Ctype_hipError_t { _cgo0 := p; _cgoCheckPointer(_cgo0, nil); return _Cfunc_hipFree(_cgo0) }()
	do(func() { _Cfunc_hipDeviceSynchronize() })
	defer do(func() {})
}
`

// indexOfSrc type-checks indexSrc and returns an Index of it.
func indexOfSrc(t *testing.T) (*token.FileSet, *ast.File, *types.Info, *Index) {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", indexSrc, 0)
	require.NoError(t, err)
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{},
		Uses: map[*ast.Ident]types.Object{}}
	_, err = (&types.Config{Importer: importer.Default()}).Check("p", fset, []*ast.File{f}, info)
	require.NoError(t, err)
	return fset, f, info, NewIndex(fset, []*ast.File{f}, info)
}

func TestIndex(t *testing.T) {
	_, _, info, x := indexOfSrc(t)

	// Functions: the 4 declared with bodies and f, its two user closures;
	// not the wrapper literal.
	var names []string
	var lits []*ast.FuncLit
	for _, fn := range x.Funcs() {
		if fn.Decl != nil {
			names = append(names, fn.Decl.Name.Name)
		} else {
			lits = append(lits, fn.Lit)
		}
	}
	assert.Equal(t, []string{"_Cfunc_hipFree", "_Cfunc_hipDeviceSynchronize", "_cgoCheckPointer", "do", "f"}, names)
	require.Len(t, lits, 2)
	assert.True(t, x.InPlace(lits[0]), "do(func() {...}) runs in place")
	assert.False(t, x.InPlace(lits[1]), "defer do(func() {}) runs later")

	// Runtime calls: the index answers as cgocall.Match does, and the same
	// Call each time.
	var got []string
	body := x.Funcs()[4].Body
	x.Inspect(body, func(c *cgocall.Call) bool {
		got = append(got, c.Name())
		assert.Same(t, c, x.Match(c.Expr), "memoized")
		want := cgocall.Match(info, c.Expr)
		require.NotNil(t, want)
		assert.Equal(t, want.Name(), c.Name())
		return true
	})
	assert.Equal(t, []string{"hipDeviceSynchronize", "hipFree", "hipDeviceSynchronize"}, got)
	assert.Nil(t, x.Match(body.List[3].(*ast.DeferStmt).Call), "do is no runtime call")

	// The functions a body refers to, each once, made once.
	var refs []string
	for _, fn := range x.funcRefs(body) {
		refs = append(refs, fn.Name())
	}
	assert.Equal(t, []string{"_Cfunc_hipDeviceSynchronize", "_cgoCheckPointer", "_Cfunc_hipFree", "do"}, refs)
	assert.Same(t, &x.funcRefs(body)[0], &x.funcRefs(body)[0], "cached: the same list")

	// Each function's graph is built once.
	g := x.CFG(body)
	assert.Same(t, g, x.CFG(body))
	assert.NotEmpty(t, g.Blocks)

	x.Release()
	assert.Nil(t, x.Funcs(), "released")
	assert.Nil(t, x.cfgs, "graphs released")
	assert.Nil(t, x.refs, "references released")
}

// An index that no analyzer used is released without being built: the
// packages that the fast path leaves (the standard library) cost nothing.
func TestIndexReleaseUnbuilt(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", "package p\nfunc f() {}\n", 0)
	require.NoError(t, err)
	x := NewIndex(fset, []*ast.File{f}, &types.Info{})
	x.Release()
	assert.Nil(t, x.calls, "not built")
	assert.Nil(t, x.Funcs())
}

// TestIndexIsWrapper: the Index answers IsWrapper as cgocall does, for every
// literal of the files, and for a literal outside them.
func TestIndexIsWrapper(t *testing.T) {
	fset, f, info, x := indexOfSrc(t)
	wrappers := 0
	ast.Inspect(f, func(n ast.Node) bool {
		if lit, ok := n.(*ast.FuncLit); ok {
			assert.Equal(t, cgocall.IsWrapper(info, lit), x.IsWrapper(lit), "literal at %v", fset.Position(lit.Pos()))
			if x.IsWrapper(lit) {
				wrappers++
			}
		}
		return true
	})
	assert.Equal(t, 1, wrappers)
	other := &ast.FuncLit{Type: &ast.FuncType{Params: &ast.FieldList{}}, Body: &ast.BlockStmt{}}
	assert.False(t, x.IsWrapper(other), "a literal outside the files is asked of cgocall")
}
