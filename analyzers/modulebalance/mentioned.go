package modulebalance

import (
	"github.com/hiplint/hiplint/internal/flow"
	"go/ast"
	"go/types"
	"slices"
	"strings"
)

// Mentioned returns the values m maps the objects that n uses to.
func mentioned[V comparable](info *types.Info, n ast.Node, m map[types.Object]V) map[V]bool {
	out := map[V]bool{}
	ast.Inspect(n, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if v, ok := m[info.Uses[id]]; ok {
				out[v] = true
			}
		}
		return true
	})
	return out
}

// SortedByName returns the locations of m in the order of their names
// (Loc.String): an order for findings about several locations at one
// point that follows the source's names.
func sortedByName[V any](m map[flow.Loc]V) []flow.Loc {
	// Collected into a slice of the map's size, not through an iterator
	// (slices.SortedFunc grew the slice by doubling): modulebalance sorts
	// its state at every return.
	if len(m) == 0 {
		return nil
	}
	keys := make([]flow.Loc, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b flow.Loc) int { return strings.Compare(a.String(), b.String()) })
	return keys
}
