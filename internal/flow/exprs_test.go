package flow

import (
	"go/ast"
	"go/token"
	"go/types"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
)

const exprsSrc = `package main

import "unsafe"

type T struct {
	p unsafe.Pointer
	n int
}

var g int

func init() {}
func main() {}

func f(p unsafe.Pointer) {
	var v unsafe.Pointer
	t := T{p: p}
	u := T{p, 1}
	s := []int{0: 1, 2}
	_ = unsafe.Add(p, 8)
	_ = append(s, 3)
	_ = (*unsafe.Pointer)(unsafe.Pointer(&v))
	_ = &t.p
	_ = "xnack+"
	_ = 1 << 3
	_ = false
	_, _, _, _ = t, u, s, g
}
`

func TestExprHelpers(t *testing.T) {
	c := check(t, exprsSrc)
	f, info, pkg := c.file, c.info, c.pkg

	var lits []*ast.CompositeLit
	var calls []*ast.CallExpr
	var addrs []*ast.UnaryExpr
	var basics []*ast.BasicLit
	var idents []*ast.Ident
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CompositeLit:
			lits = append(lits, n)
		case *ast.CallExpr:
			calls = append(calls, n)
		case *ast.UnaryExpr:
			addrs = append(addrs, n)
		case *ast.BasicLit:
			basics = append(basics, n)
		case *ast.Ident:
			idents = append(idents, n)
		}
		return true
	})
	// Composite literals: keyed and positional fields, elements.
	keyed, positional := LitFields(info, lits[0]), LitFields(info, lits[1])
	require.Len(t, keyed, 1)
	assert.Equal(t, "p", keyed[0].Field.Name())
	require.Len(t, positional, 2)
	assert.Equal(t, "n", positional[1].Field.Name())
	assert.Nil(t, LitFields(info, lits[2]), "a slice literal sets no fields")
	assert.Len(t, elements(lits[2]), 2)

	// Builtins.
	assert.Equal(t, "Add", unsafeBuiltin(info, calls[0]))
	assert.Equal(t, "", BuiltinName(info, calls[0]))
	assert.Equal(t, "append", BuiltinName(info, calls[1]))
	assert.Equal(t, "", unsafeBuiltin(info, calls[1]))

	// Out-arguments through conversions, and fields.
	assert.Equal(t, "v", AddrOf(info, calls[2]).Name())
	assert.Equal(t, "p", AddrOf(info, addrs[1]).Name())
	assert.Nil(t, AddrOf(info, calls[0]))

	// Constants.
	var str, shift, fls ast.Expr
	for _, b := range basics {
		if b.Value == `"xnack+"` {
			str = b
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		if b, ok := n.(*ast.BinaryExpr); ok && b.Op == token.SHL {
			shift = b
		}
		if id, ok := n.(*ast.Ident); ok && id.Name == "false" {
			fls = id
		}
		return true
	})
	assert.Equal(t, "xnack+", ConstString(info, str))
	n, ok := constInt(info, shift)
	assert.True(t, ok)
	assert.EqualValues(t, 8, n)
	assert.True(t, IsConstFalse(info, fls))
	assert.False(t, IsConstFalse(info, shift))

	// Types, and expressions without one (tier 3).
	assert.Nil(t, under(info, &ast.Ident{Name: "C"}))
	assert.True(t, pointerLike(types.Typ[types.UnsafePointer]))
	assert.False(t, pointerLike(nil))
	assert.True(t, IsError(types.Universe.Lookup("error").Type()))
	assert.False(t, IsError(nil))

	// Local variables.
	for _, id := range idents {
		v, _ := info.Defs[id].(*types.Var)
		if v == nil {
			continue
		}
		_, local := IsLocalVar(v)
		assert.Equal(t, v.Name() != "g" && !v.IsField(), local, v.Name())
	}

	// Comparisons.
	assert.Equal(t, token.GTR, Flip(token.LSS))
	assert.Equal(t, token.EQL, Flip(token.EQL))
	assert.True(t, Holds(token.GEQ, 1, 1))
	assert.False(t, Holds(token.NEQ, 1, 1))

	// Entry points.
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok {
			continue
		}
		fn := info.Defs[fd.Name].(*types.Func)
		want := map[string]EntryKind{"init": InitEntry, "main": mainEntry, "f": NotEntry}[fn.Name()]
		assert.Equal(t, want, EntryOf(fn, fd, true), fn.Name())
	}
	sig := types.NewSignatureType(nil, nil, nil, types.NewTuple(types.NewParam(0, pkg, "t", types.Typ[types.Int])), nil, false)
	decl := &ast.FuncDecl{Name: ast.NewIdent("TestX")}
	assert.Equal(t, TestEntry, EntryOf(types.NewFunc(0, pkg, "TestX", sig), decl, true))
	assert.Equal(t, NotEntry, EntryOf(types.NewFunc(0, pkg, "TestX", sig), decl, false), "only in test files")
	assert.Equal(t, NotEntry, EntryOf(types.NewFunc(0, pkg, "Testx", sig), decl, true))
	assert.Equal(t, TestMainEntry, EntryOf(types.NewFunc(0, pkg, "TestMain", sig), decl, true))
	assert.True(t, isTestName("Example", "Example"))
	assert.True(t, isTestName("Test_x", "Test"))
	assert.False(t, isTestName("Testing", "Test"))
}
