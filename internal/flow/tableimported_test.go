package flow

import (
	"go/token"
	"go/types"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
	"golang.org/x/tools/go/analysis"
)

// TestTableImported: a fact read from another package is completed by
// Imported once, and kept so; this package's summaries are not.
func TestTableImported(t *testing.T) {
	pass, _ := fakePass(t, "package p\nfunc f() {}\n")
	other := types.NewPackage("q", "q")
	g := types.NewFunc(token.Pos(7), other, "G", types.NewSignatureType(nil, nil, nil, nil, nil, false))
	reads := 0
	pass.ImportObjectFact = func(obj types.Object, fact analysis.Fact) bool {
		reads++
		*fact.(*frees) = frees{Refs: []Ref{{Param: 0}}}
		return obj == g
	}
	tab := NewTable[frees](pass, nil)
	calls := 0
	tab.Imported = func(fn *types.Func, f *frees) {
		calls++
		f.Refs[0].Path = "." + fn.Name()
	}
	f := lookupFunc(t, pass, "f")
	tab.Set(f, frees{Refs: []Ref{{Param: 1}}})
	assert.Equal(t, "p0.G", tab.Get(g).Refs[0].String(), "completed with the function")
	assert.Equal(t, "p0.G", tab.Get(g).Refs[0].String())
	assert.Equal(t, 1, calls, "once: the completed fact is kept")
	assert.Equal(t, 1, reads)
	assert.Equal(t, "p1", tab.Get(f).Refs[0].String(), "this package's summary as it was set")
}
