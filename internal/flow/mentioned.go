package flow

import (
	"go/ast"
	"go/types"
	"maps"
	"slices"
	"strings"
)

// Mentioned returns the values m maps the objects that n uses to.
func Mentioned[V comparable](info *types.Info, n ast.Node, m map[types.Object]V) map[V]bool {
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
func SortedByName[V any](m map[Loc]V) []Loc {
	return slices.SortedFunc(maps.Keys(m), func(a, b Loc) int { return strings.Compare(a.String(), b.String()) })
}
