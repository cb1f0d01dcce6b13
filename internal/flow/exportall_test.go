package flow

import (
	"go/types"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
)

func TestExportAll(t *testing.T) {
	pass, facts := fakePass(t, "package p\nfunc f() {}\nfunc g() {}\n")
	f, g := lookupFunc(t, pass, "f"), lookupFunc(t, pass, "g")
	a, b := NewTable[frees](pass, nil), NewTable[reaches](pass, nil)
	a.Set(f, frees{Refs: []Ref{{0, ""}}})
	b.Set(f, reaches{Yes: true})
	b.Set(g, reaches{}) // empty: not exported
	ExportAll([]*types.Func{f, g}, a, b)
	if assert.Len(t, facts[f], 2, "one fact per table") {
		assert.Equal(t, []Ref{{0, ""}}, facts[f][0].(*frees).Refs)
		assert.True(t, facts[f][1].(*reaches).Yes)
	}
	assert.Empty(t, facts[g], "g's summaries are empty")
}
