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

func TestStoresOf(t *testing.T) {
	c := check(t, `package p
type pool struct {
	mods   []*int
	byName map[string]*int
	m      *int
	n      int
}
func f(p *pool, q pool, other *int) {
	m := new(int)
	p.mods = append(p.mods, m)
	p.byName["k"] = m
	q.m = m
	p.m = other
	p.n = *m
	local := []*int{}
	local = append(local, m)
	func() { p.m = m }()
}`)
	fn := c.file.Decls[1].(*ast.FuncDecl)
	var m types.Object
	for id, o := range c.info.Defs {
		if id.Name == "m" && o.Parent() != nil {
			m = o
		}
	}
	isPtr := func(t types.Type) bool { _, ok := t.(*types.Pointer); return ok }
	var got []string
	for _, st := range StoresOf(c.info, fn.Body, map[types.Object]bool{m: true}, isPtr) {
		got = append(got, types.ExprString(st.To)+map[bool]string{true: " add", false: ""}[st.Add])
	}
	// Not p.m = other (another value), p.n = *m (no pointer), local (no field)
	// nor the store in the closure.
	assert.Equal(t, []string{"p.mods add", "p.byName add", "q.m"}, got)
	assert.Nil(t, StoresOf(c.info, fn.Body, nil, isPtr))
}

// TestStoresOfTier3: at tier 3 (cgo failed, "C" a fake package) a local
// that received a module from a runtime load has no type; its store into a
// field is a store all the same (modulebalance: `var m C.hipModule_t;
// hipModuleLoad(&m, ...); k.mod = m` makes k's caller the owner, testdata
// modulebalance/realhip/pools.go). It was dropped for want of a type.
func TestStoresOfTier3(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", `package p

// #include <hip/hip_runtime_api.h>
import "C"

type kernelFile struct{ mod C.hipModule_t; n int }

func (k *kernelFile) open(path *C.char) {
	var m C.hipModule_t
	C.hipModuleLoad(&m, path)
	k.mod = m
	k.n = 1
}
`, parser.ParseComments)
	require.NoError(t, err)
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{},
		Uses: map[*ast.Ident]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{}}
	_, err = (&types.Config{Importer: importer.Default(), FakeImportC: true}).Check("p", fset, []*ast.File{f}, info)
	require.NoError(t, err)
	fn := f.Decls[2].(*ast.FuncDecl)
	var m types.Object
	for id, o := range info.Defs {
		if id.Name == "m" && o.Parent() != nil {
			m = o
		}
	}
	never := func(types.Type) bool { return false } // no C type is known at tier 3
	var got []string
	for _, st := range StoresOf(info, fn.Body, map[types.Object]bool{m: true}, never) {
		got = append(got, types.ExprString(st.To))
	}
	assert.Equal(t, []string{"k.mod"}, got)
}
