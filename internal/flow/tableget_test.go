package flow

import (
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
)

func TestTableGet(t *testing.T) {
	src := `package p
func f() {}
func g() {}
`
	pass, _ := fakePass(t, src)
	tab := NewTable[frees](pass, nil)
	f, g := lookupFunc(t, pass, "f"), lookupFunc(t, pass, "g")
	tab.Set(f, frees{Refs: []Ref{{0, ".h"}}})
	assert.Equal(t, "p0.h", tab.Get(f).Refs[0].String(), "f's summary")
	assert.Empty(t, tab.Get(g).Refs, "g has none: the zero summary")
	assert.Empty(t, tab.Get(nil).Refs, "no callee: the zero summary")
}
