package flow

import (
	"go/ast"
	"go/parser"
	"go/token"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
)

const stmtsSrc = `package p

import (
	"sync"
	"testing"
)

type K struct{}

func (k *K) Close() {}

func load() error { return nil }

func f(t *testing.T, o *sync.Once, kp *K) error {
	err := load()
	if err != nil {
		return err
	}
	for range 3 {
		_ = load()
	}
	var k K
	k.Close()
	kp.Close()
	o.Do(func() {})
	t.Cleanup(func() {})
	t.Fatalf("x")
	return nil
}
`

func TestStmtHelpers(t *testing.T) {
	f, info := checkSrc(t, stmtsSrc)
	fd := f.Decls[len(f.Decls)-1].(*ast.FuncDecl)
	body := fd.Body
	var calls []*ast.CallExpr
	ast.Inspect(body, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok {
			calls = append(calls, c)
		}
		return true
	})
	// load(), load() in the loop, k.Close, kp.Close, o.Do, t.Cleanup, t.Fatalf
	require.Len(t, calls, 7)
	first := enclosingStmt(body, calls[0])
	assert.Equal(t, body.List[0], first)
	assert.Equal(t, body.List[1], errorCheck(body, first))
	assert.Equal(t, body.List[1], errorCheck(body, body.List[1]), "an if statement that returns checks itself")
	assert.Nil(t, errorCheck(body, body.List[2]), "a loop followed by no check")
	assert.False(t, inLoop(body, calls[0]))
	assert.True(t, inLoop(body, calls[1]))

	ptrRecv, onPtr := ReceiverKinds(info, calls[2])
	assert.True(t, ptrRecv)
	assert.False(t, onPtr)
	ptrRecv, onPtr = ReceiverKinds(info, calls[3])
	assert.True(t, ptrRecv)
	assert.True(t, onPtr)
	ptrRecv, _ = ReceiverKinds(info, calls[0])
	assert.False(t, ptrRecv)

	assert.True(t, isOnceDo(Callee(info, calls[4])))
	assert.True(t, IsTestCleanup(Callee(info, calls[5])))
	assert.False(t, IsTestCleanup(Callee(info, calls[4])))
	assert.Equal(t, "t.Fatalf", TestStop(info, body.List[len(body.List)-2]))
	assert.Equal(t, "", TestStop(info, body.List[0]))
}

func TestLineAfter(t *testing.T) {
	fset := token.NewFileSet()
	src := "package p\n\nfunc f() {\n\tif true {\n\t\treturn\n\t}\n}\n"
	f := parseOnly(t, fset, src)
	ifs := f.Decls[0].(*ast.FuncDecl).Body.List[0]
	edit, ok := lineAfter(fset, ifs, "defer x()")
	require.True(t, ok)
	assert.Equal(t, "\tdefer x()\n", string(edit.NewText))
	assert.Equal(t, 7, fset.Position(edit.Pos).Line)
	_, ok = lineAfter(fset, f.Decls[0], "x") // ends on the last line
	assert.False(t, ok)
}

func parseOnly(t *testing.T, fset *token.FileSet, src string) *ast.File {
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	require.NoError(t, err)
	return f
}
