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

// TestCTypedFields: at tier 3 the fields declared with a C type name are
// found by their syntax, and a struct (or a pointer to one) holding such a
// field holds it; with cgo's types there are none to find.
func TestCTypedFields(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", `package p

// #include <hip/hip_runtime_api.h>
import "C"

type Reloader struct{ m C.hipModule_t; s C.hipStream_t; n int }
type Other struct{ s C.hipStream_t }
`, parser.ParseComments)
	require.NoError(t, err)
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{},
		Uses: map[*ast.Ident]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{}}
	pkg, err := (&types.Config{Importer: importer.Default(), FakeImportC: true}).Check("p", fset, []*ast.File{f}, info)
	require.NoError(t, err)
	fields := CTypedFields(pkg, info, []*ast.File{f}, []string{"hipModule_t", "CUmodule"})
	var names []string
	for v := range fields {
		names = append(names, v.Name())
		assert.True(t, Untyped(v.Type()), "no type at tier 3")
	}
	assert.Equal(t, []string{"m"}, names)
	reloader := pkg.Scope().Lookup("Reloader").Type()
	assert.True(t, HoldsField(reloader, fields))
	assert.True(t, HoldsField(types.NewPointer(reloader), fields))
	assert.False(t, HoldsField(pkg.Scope().Lookup("Other").Type(), fields))
	assert.False(t, Untyped(types.Typ[types.Int]))

	c := check(t, "package p\ntype R struct{ m *int }\n")
	assert.Empty(t, CTypedFields(c.pkg, c.info, []*ast.File{c.file}, []string{"hipModule_t"}), "not at tier 3")
}
