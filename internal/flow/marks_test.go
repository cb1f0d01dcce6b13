package flow

import (
	"go/types"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type marked struct{}

func (*marked) AFact() {}

func TestMarks(t *testing.T) {
	src := `package p
type I interface{ Close() }
type A struct{}
func (A) Close() {}
type B struct{}
func (B) Close() {}
func f() {}
`
	pass, facts := fakePass(t, src)
	method := func(typ string) *types.Func {
		obj, _, _ := types.LookupFieldOrMethod(pass.Pkg.Scope().Lookup(typ).Type(), true, pass.Pkg, "Close")
		return obj.(*types.Func)
	}
	iface, a, b := method("I"), method("A"), method("B")
	f := lookupFunc(t, pass, "f")
	impls := NewImpls(pass)
	any, every := NewMarks[marked](pass, impls), NewMarks[marked](pass, impls)
	every.Every = true

	assert.False(t, any.Has(f))
	assert.True(t, any.Set(f, true))
	assert.False(t, any.Set(f, true), "no change")
	assert.True(t, any.Has(f))
	assert.True(t, any.Set(f, false), "unmarking is a change")
	assert.False(t, any.Has(f))
	assert.False(t, any.Has(nil))

	any.Set(a, true)
	every.Set(a, true)
	assert.True(t, any.Has(iface), "one implementation is marked")
	assert.False(t, every.Has(iface), "B is not marked")
	every.Set(b, true)
	assert.True(t, every.Has(iface))

	any.Set(f, true)
	any.Export([]*types.Func{f, b, iface})
	require.Len(t, facts[f], 1)
	assert.Empty(t, facts[b])
	assert.Empty(t, facts[iface])
}
