package flow

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
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
	c := check(t, callsSrc)
	return c.file, c.info
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
	assert.Equal(t, "t", types.ExprString(argAt(method, -1)), "receiver")
	assert.Equal(t, "2", types.ExprString(argAt(method, 1)))
	assert.Nil(t, argAt(fn, -1), "a function call has no receiver")
	assert.Nil(t, argAt(fn, 5))

	sig := Callee(info, fn).Signature()
	i, ok := paramIndex(sig, sig.Params().At(1))
	assert.True(t, ok)
	assert.Equal(t, 1, i)
	msig := Callee(info, method).Signature()
	i, ok = paramIndex(msig, msig.Recv())
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
	assert.False(t, importedFact(nil, nil, nil))
}

func TestParent(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", `package p
func f(xs []int) {
	for _, x := range xs {
		if x > 0 {
			g(x)
		}
	}
	g(1)
	switch y := len(xs); {
	case y > 1:
		g(y)
		g(y + 1)
	default:
		func() { g(2) }()
	}
	if len(xs) > 0 {
		g(3)
	} else if len(xs) > 1 {
		g(4)
	} else {
		g(5)
	}
}
func g(int) {}
`, 0)
	if err != nil {
		t.Fatal(err)
	}
	// Every node's parent, from a walk with a stack, against Parent.
	body := f.Decls[0].(*ast.FuncDecl).Body
	var stack []ast.Node
	n := 0
	ast.Inspect(body, func(x ast.Node) bool {
		if x == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		var want ast.Node
		if len(stack) > 0 {
			want = stack[len(stack)-1]
		}
		if got := Parent(body, x); got != want {
			t.Errorf("Parent(%T at %v) = %T, want %T", x, fset.Position(x.Pos()), got, want)
		}
		n++
		stack = append(stack, x)
		return true
	})
	if n < 15 {
		t.Fatalf("walked %d nodes", n)
	}
	if got := Parent(body, f.Decls[1]); got != nil {
		t.Errorf("Parent of a node outside root = %T, want nil", got)
	}
}
