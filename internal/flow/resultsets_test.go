package flow

import (
	"go/types"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
)

// TestResultSmallSet: the constants a helper returns, through helpers it
// returns the result of; not a function that returns anything else.
func TestResultSmallSet(t *testing.T) {
	src := `package p
type Kind int
const (
	H2D Kind = 1
	D2D Kind = 3
)
func kindFrom(onDevice bool) Kind {
	if onDevice {
		return D2D
	}
	return H2D
}
func always() Kind { return kindFrom(true) }
func passed(k Kind) Kind { return k }
func mixed(k Kind, b bool) Kind {
	if b {
		return k
	}
	return D2D
}
func two() (Kind, error) { return D2D, nil }
func self(n int) Kind {
	if n > 0 {
		return self(n - 1)
	}
	return H2D
}
`
	pass, _ := fakePass(t, src)
	x := NewIndex(pass.Fset, pass.Files, pass.TypesInfo)
	set := func(name string) (SmallSet, bool) {
		return x.ResultSmallSet(pass.Pkg.Scope().Lookup(name).(*types.Func))
	}
	s, ok := set("kindFrom")
	assert.True(t, ok)
	assert.True(t, s.Has(1) && s.Has(3) && !s.Has(0))
	s, ok = set("always")
	assert.True(t, ok)
	assert.True(t, s.Has(1) && s.Has(3), "a helper's set, whatever its argument")
	for _, name := range []string{"passed", "mixed", "two", "self"} {
		_, ok = set(name)
		assert.False(t, ok, name)
	}
}
