package flow

import (
	"go/ast"
	"go/types"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
)

const rootsSrc = `package p

type S struct{ h *int; inner struct{ g uintptr } }

func f(a int, s *S, mods []*int) {
	_ = uintptr(a)
	_ = &s.inner.g
	_ = *s.h
	_ = mods[a]
	_ = g()
	for _, m := range mods {
		_ = m
	}
	defer func() {
		if r := recover(); r != nil {
			println(r)
		}
	}()
	func() { panic(1) }()
}

func g() int { panic("no") }

func h() {
	defer func() { recover(); panic(2) }()
}
`

func checkSrc(t *testing.T, src string) (*ast.File, *types.Info) {
	c := check(t, src)
	return c.file, c.info
}

func TestRootsAndPaths(t *testing.T) {
	f, info := checkSrc(t, rootsSrc)
	fd := f.Decls[1].(*ast.FuncDecl)
	var rhs []ast.Expr
	for _, st := range fd.Body.List[:5] {
		rhs = append(rhs, st.(*ast.AssignStmt).Rhs[0])
	}
	names := []string{"a", "s", "s", "mods", ""}
	for i, e := range rhs {
		v := RootVar(info, e)
		if names[i] == "" {
			assert.Nil(t, v, types.ExprString(e))
			continue
		}
		require.NotNil(t, v, types.ExprString(e))
		assert.Equal(t, names[i], v.Name())
	}
	v, path, ok := fieldPath(info, rhs[1].(*ast.UnaryExpr).X)
	require.True(t, ok)
	assert.Equal(t, "s", v.Name())
	assert.Equal(t, ".inner.g", path)
	_, _, ok = fieldPath(info, rhs[3]) // an element is no field path
	assert.False(t, ok)

	ranged := rangedVars(info, fd.Body)
	require.Len(t, ranged, 1)
	for m, x := range ranged {
		assert.Equal(t, "m", m.Name())
		assert.Equal(t, "mods", x.Name())
		assert.True(t, Declares(fd.Body, m))
		assert.False(t, Declares(fd.Body, x)) // a parameter
	}
	assert.True(t, isContainer(info.TypeOf(rhs[3].(*ast.IndexExpr).X)))
	assert.False(t, isContainer(nil))

	call := &ast.CallExpr{Fun: ast.NewIdent("f"), Args: []ast.Expr{ast.NewIdent("x")}}
	assert.Len(t, argsAt(call, []int{0, 1, Receiver}), 1) // no second argument, no receiver
}

func TestPanics(t *testing.T) {
	f, info := checkSrc(t, rootsSrc)
	fBody := f.Decls[1].(*ast.FuncDecl).Body
	gBody := f.Decls[2].(*ast.FuncDecl).Body
	hBody := f.Decls[3].(*ast.FuncDecl).Body
	assert.False(t, callsPanic(info, fBody), "a panic inside a literal is the literal's")
	assert.True(t, callsPanic(info, gBody))
	assert.True(t, Recovers(info, fBody))
	assert.False(t, Recovers(info, hBody), "a recover that panics again")
	assert.False(t, Recovers(info, gBody))
}

const keysSrc = `package p

var mods map[string]*int

func f(name, other string, i int) {
	_ = mods["saxpy"]
	_ = mods[name]
	_ = mods[other]
	other = "x"
	_ = mods[string(rune(i+1))]
	i++
}
`

func TestStableKeys(t *testing.T) {
	f, info := checkSrc(t, keysSrc)
	fd := f.Decls[1].(*ast.FuncDecl)
	lc := Locator{Info: info, Index: NewStableKeys(info, fd.Body).Index}
	var got []string
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if x, ok := n.(*ast.IndexExpr); ok {
			if l, ok := lc.Of(x); ok {
				got = append(got, l.String())
			} else {
				got = append(got, "-")
			}
		}
		return true
	})
	assert.Equal(t, []string{"mods[saxpy]", "mods[name]", "-", "-"}, got)
	sig := info.Defs[fd.Name].(*types.Func).Signature()
	assert.False(t, mayChange(info, fd.Body, sig.Params().At(0)))
	assert.True(t, mayChange(info, fd.Body, sig.Params().At(1)))
	assert.True(t, mayChange(info, fd.Body, sig.Params().At(2)), "i++")
}

func TestIsErrorLike(t *testing.T) {
	errType := types.Universe.Lookup("error").Type()
	result := types.NewInterfaceType(nil, []types.Type{errType})
	result.Complete()
	named := types.NewNamed(types.NewTypeName(0, nil, "Result", nil), result, nil)
	assert.True(t, isErrorLike(errType))
	assert.True(t, isErrorLike(named))
	assert.False(t, isErrorLike(types.Typ[types.Int]))
	assert.False(t, isErrorLike(types.NewInterfaceType(nil, nil).Complete()))
	assert.False(t, isErrorLike(nil))
}
