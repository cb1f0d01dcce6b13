package flow

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const callsSrc = `package p

import "unsafe"

type T struct{ x int }

func (t *T) M(a, b int) {}
func f(a int, b *int) {}

func use(t *T, p *int) {
	t.M(1, 2)
	f(3, p)
	_ = unsafe.Pointer(uintptr(unsafe.Pointer(p)))
	_ = p == nil
}
`

func typecheck(t *testing.T) (*ast.File, *types.Info) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", callsSrc, 0)
	require.NoError(t, err)
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{},
		Uses: map[*ast.Ident]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{}}
	_, err = (&types.Config{Importer: importer.Default()}).Check("p", fset, []*ast.File{f}, info)
	require.NoError(t, err)
	return f, info
}

func TestCallHelpers(t *testing.T) {
	f, info := typecheck(t)
	var calls []*ast.CallExpr
	var conv, cmp ast.Expr
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.ExprStmt:
			calls = append(calls, n.X.(*ast.CallExpr))
		case *ast.AssignStmt:
			if b, ok := n.Rhs[0].(*ast.BinaryExpr); ok {
				cmp = b
			} else {
				conv = n.Rhs[0]
			}
		}
		return true
	})
	require.Len(t, calls, 2)

	method, fn := calls[0], calls[1]
	assert.Equal(t, "M", Callee(info, method).Name())
	assert.Equal(t, "f", Callee(info, fn).Name())
	assert.Equal(t, "t", types.ExprString(ArgAt(method, -1)), "receiver")
	assert.Equal(t, "2", types.ExprString(ArgAt(method, 1)))
	assert.Nil(t, ArgAt(fn, -1), "a function call has no receiver")
	assert.Nil(t, ArgAt(fn, 5))

	sig := Callee(info, fn).Signature()
	i, ok := ParamIndex(sig, sig.Params().At(1))
	assert.True(t, ok)
	assert.Equal(t, 1, i)
	msig := Callee(info, method).Signature()
	i, ok = ParamIndex(msig, msig.Recv())
	assert.True(t, ok)
	assert.Equal(t, -1, i)

	assert.Equal(t, "p", types.ExprString(StripConversions(info, conv)), "all conversions removed")
	b := cmp.(*ast.BinaryExpr)
	assert.True(t, IsNil(info, b.Y))
	assert.False(t, IsNil(info, b.X))
}

func TestImportedFactNeedsAFunction(t *testing.T) {
	// A call through a value, a builtin or a conversion has no static
	// callee: there is no fact to import, and no nil to dereference.
	assert.False(t, ImportedFact(nil, nil, nil))
}
