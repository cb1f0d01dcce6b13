package flow

import (
	"go/ast"
	"go/token"
	"go/types"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
)

const valuesSrc = `package p

import "runtime"

type M struct{ h uintptr }

var cache []*M

func use(...any) {}

func f(m *M, ch chan *M) (*M, *M) {
	a := &M{}
	a = new(M)
	var b M
	c := m
	h := uintptr(m.h)
	h2 := m.h
	h2 = 0
	d := &M{}
	cache = append(cache, d)
	e := &M{}
	ch <- e
	runtime.SetFinalizer(a, func(*M) {})
	use(b, c, h, h2)
	return &M{h: 1}, nil
}
`

func TestValues(t *testing.T) {
	f, info := checkSrc(t, valuesSrc)
	var fd *ast.FuncDecl
	for _, d := range f.Decls {
		if x, ok := d.(*ast.FuncDecl); ok {
			fd = x
		}
	}
	body := fd.Body
	sig := info.Defs[fd.Name].(*types.Func).Signature()
	local := func(name string) types.Object {
		for id, obj := range info.Defs {
			if id.Name == name && obj != nil && Declares(body, obj) {
				return obj
			}
		}
		t.Fatalf("no local %s", name)
		return nil
	}
	assert.True(t, OnlyFresh(info, body, local("a")))
	assert.True(t, OnlyFresh(info, body, local("b")))
	assert.False(t, OnlyFresh(info, body, local("c")))

	aliases, defs := ParamAliases(nil, info, body, sig)
	assert.Equal(t, sig.Params().At(0), aliases[local("c")])
	assert.Equal(t, sig.Params().At(0), aliases[local("h")])
	assert.NotNil(t, defs[local("h")])
	assert.NotContains(t, aliases, local("h2"), "assigned again")
	x := NewIndex(token.NewFileSet(), []*ast.File{f}, info)
	xAliases, xDefs := ParamAliases(x, info, body, sig) // over the Index's list
	assert.Equal(t, aliases, xAliases)
	assert.Equal(t, defs, xDefs)

	objs := func(names ...string) map[types.Object]bool {
		out := map[types.Object]bool{}
		for _, n := range names {
			out[local(n)] = true
		}
		return out
	}
	assert.True(t, StoredElsewhere(info, body, objs("d")), "appended to a global")
	assert.True(t, StoredElsewhere(info, body, objs("e")), "sent")
	assert.False(t, StoredElsewhere(info, body, objs("b")), "only passed to a call")
	ret := body.List[len(body.List)-1].(*ast.ReturnStmt)
	assert.False(t, valueOf(info, ret.Results[0], objs("a")))

	require.Len(t, FinalizedTypes(info, []Func{{Body: body}}), 1)
	assert.Equal(t, "M", NamedOf(sig.Params().At(0).Type()).Obj().Name())
	assert.Nil(t, NamedOf(types.Typ[types.Int]))
}

func TestTypeHolds(t *testing.T) {
	target := types.NewNamed(types.NewTypeName(0, nil, "H", nil), types.Typ[types.Uintptr], nil)
	is := func(t types.Type) bool { return t == target }
	node := types.NewNamed(types.NewTypeName(0, nil, "Node", nil), nil, nil)
	node.SetUnderlying(types.NewStruct([]*types.Var{
		types.NewField(0, nil, "next", types.NewPointer(node), false),
		types.NewField(0, nil, "h", target, false),
	}, nil))
	assert.True(t, TypeHolds(types.NewPointer(node), is))
	loop := types.NewNamed(types.NewTypeName(0, nil, "Loop", nil), nil, nil)
	loop.SetUnderlying(types.NewStruct([]*types.Var{types.NewField(0, nil, "next", types.NewPointer(loop), false)}, nil))
	assert.False(t, TypeHolds(loop, is), "a recursive type without the target ends")
	assert.False(t, TypeHolds(nil, is))
}

// TestMayHold: what TypeHolds answers, plus containers, and the types that
// can carry anything; a named uintptr that is not the target carries
// nothing, and a recursive type ends.
func TestMayHold(t *testing.T) {
	target := types.NewNamed(types.NewTypeName(0, nil, "H", nil), types.Typ[types.Uintptr], nil)
	is := func(t types.Type) bool { return t == target }
	other := types.NewNamed(types.NewTypeName(0, nil, "F", nil), types.Typ[types.Uintptr], nil)
	loop := types.NewNamed(types.NewTypeName(0, nil, "Loop", nil), nil, nil)
	loop.SetUnderlying(types.NewStruct([]*types.Var{
		types.NewField(0, nil, "next", types.NewPointer(loop), false),
		types.NewField(0, nil, "f", other, false),
		types.NewField(0, nil, "s", types.Typ[types.String], false),
		types.NewField(0, nil, "grid", types.NewArray(types.Typ[types.Uint32], 3), false),
	}, nil))
	holds := []types.Type{
		target,
		types.NewSlice(target),
		types.NewMap(types.Typ[types.String], types.NewPointer(target)),
		types.NewChan(types.SendRecv, target),
		types.NewArray(target, 2),
		types.NewInterfaceType(nil, nil),
		types.NewSignatureType(nil, nil, nil, nil, nil, false),
		types.Typ[types.UnsafePointer],
		types.Typ[types.Uintptr],
		types.Typ[types.Invalid],
	}
	for _, ty := range holds {
		assert.True(t, mayHold(ty, is), "%s", ty)
	}
	for _, ty := range []types.Type{other, types.NewPointer(loop), types.Typ[types.Int], types.NewSlice(types.Typ[types.Byte])} {
		assert.False(t, mayHold(ty, is), "%s", ty)
	}
	assert.False(t, TypeHolds(types.NewSlice(target), is), "TypeHolds looks at no elements")
}
