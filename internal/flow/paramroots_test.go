package flow

import (
	"go/ast"
	"go/types"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
)

func TestParamRoots(t *testing.T) {
	c := check(t, `package p
type T struct{ h *int }
func (t *T) f(a *int, mods []*int, b *int) (*int, *T, error) {
	for _, m := range mods { _ = m }
	alias := b
	var local *int
	if a == nil { return nil, nil, nil }
	if nil != local { return (*int)(local), nil, nil }
	_ = alias
	return nil, &T{h: local}, nil
}`)
	fn := c.file.Decls[1].(*ast.FuncDecl)
	sig := c.info.Defs[fn.Name].Type().(*types.Signature)
	obj := func(name string) types.Object {
		for id, o := range c.info.Defs {
			if id.Name == name {
				return o
			}
		}
		return nil
	}
	aliases, _ := ParamAliases(nil, c.info, fn.Body, sig)
	roots := map[types.Object]bool{obj("m"): true, obj("alias"): true, obj("t"): true, obj("local"): true}
	assert.Equal(t, []int{-1, 1, 2}, ParamsOf(c.info, fn.Body, sig, roots, aliases))

	i, ok := ReturnedResult(c.info, fn.Body, map[types.Object]bool{obj("local"): true})
	assert.True(t, ok)
	assert.Equal(t, 0, i) // the first return that hands it out, through a conversion
	_, ok = ReturnedResult(c.info, fn.Body, map[types.Object]bool{obj("a"): true})
	assert.False(t, ok)

	assert.Equal(t, 2, LastResult(sig, IsError))
	assert.Equal(t, 1, LastResult(sig, func(t types.Type) bool { _, ok := t.(*types.Pointer); return ok }))
	assert.Equal(t, -1, LastResult(sig, func(types.Type) bool { return false }))

	lit := fn.Body.List[len(fn.Body.List)-1].(*ast.ReturnStmt).Results[1]
	assert.NotNil(t, Addressed(lit))
	assert.Equal(t, Addressed(lit), StripAddr(lit))
	assert.Nil(t, Addressed(Addressed(lit)))
	assert.Equal(t, Addressed(lit), StripAddr(Addressed(lit)))
}

func TestPointerParam(t *testing.T) {
	c := check(t, `package p
type T struct{ h *int }
func (t *T) f(a *int, mods []*int, v T) {
	_ = t.h
	_ = *a
	_ = mods[0]
	_ = v.h
}`)
	fn := c.file.Decls[1].(*ast.FuncDecl)
	sig := c.info.Defs[fn.Name].Type().(*types.Signature)
	param := func(i int) (int, bool) {
		e := fn.Body.List[i].(*ast.AssignStmt).Rhs[0]
		return PointerParam(c.info, sig, e)
	}
	i, ok := param(0)
	assert.True(t, ok)
	assert.Equal(t, -1, i) // t.h: the receiver
	i, ok = param(1)
	assert.True(t, ok)
	assert.Equal(t, 0, i) // *a
	_, ok = param(2)
	assert.False(t, ok) // mods is a slice, not a pointer
	_, ok = param(3)
	assert.False(t, ok) // v is a copy
}
