package flow

import (
	"cmp"
	"go/types"
	"maps"
	"slices"

	"golang.org/x/tools/go/analysis"
)

// StreamKind is the fact that a struct field or package-level variable holds
// streams created with the given flags everywhere in its package
// (Index.StreamVarFlags), so that an importer knows w.stream is
// non-blocking too. An analyzer that lists it among its FactTypes exports
// and reads it through StreamVarFacts.
type StreamKind struct{ NonBlocking bool }

func (*StreamKind) AFact() {}
func (f *StreamKind) String() string {
	if f.NonBlocking {
		return "nonBlockingStream"
	}
	return "blockingStream"
}

// StreamVarFacts exports through pass, in source order, a StreamKind fact for
// each field and package-level variable of the package whose streams' flags
// are known (StreamVarFlags), and returns the StreamQueues.Flags hook that
// reads them: this package's flags, else the fact another package exported
// for the variable.
func StreamVarFacts(pass *analysis.Pass, x *Index) func(v *types.Var) (nonBlocking, ok bool) {
	local := x.StreamVarFlags(pass.Pkg)
	for _, v := range slices.SortedFunc(maps.Keys(local), func(a, b *types.Var) int { return cmp.Compare(a.Pos(), b.Pos()) }) {
		pass.ExportObjectFact(v, &StreamKind{NonBlocking: local[v]})
	}
	return func(v *types.Var) (bool, bool) {
		if nb, ok := local[v]; ok {
			return nb, true
		}
		var f StreamKind
		if v.Pkg() != pass.Pkg && pass.ImportObjectFact(v.Origin(), &f) {
			return f.NonBlocking, true
		}
		return false, false
	}
}
