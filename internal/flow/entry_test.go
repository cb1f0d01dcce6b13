package flow

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
)

const entrySrc = `package p

import "fmt"

func ExampleRuns() {
	fmt.Println(1)
	// Output: 1
}

func ExampleUnordered() {
	fmt.Println(1)
	// Unordered output:
	// 1
}

func ExampleCompiledOnly() {
	// No output comment: go test compiles it and never runs it.
	fmt.Println(1)
}

func TestX(t interface{}) {}
`

func TestIndexEntry(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p_test.go", entrySrc, parser.ParseComments)
	require.NoError(t, err)
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{}}
	_, err = (&types.Config{Importer: importer.Default()}).Check("p", fset, []*ast.File{f}, info)
	require.NoError(t, err)
	x := NewIndex(fset, []*ast.File{f}, info)
	got := map[string]EntryKind{}
	for _, fn := range x.Funcs() {
		got[fn.Decl.Name.Name] = x.Entry(fn, info)
	}
	assert.Equal(t, TestEntry, got["ExampleRuns"])
	assert.Equal(t, TestEntry, got["ExampleUnordered"])
	assert.Equal(t, NotEntry, got["ExampleCompiledOnly"], "an example without an output comment is never run")
}
