package flow

import (
	"slices"
)

// UnionSorted returns the union of the sorted sets a and b, ordered by c.
// It never modifies a or b, and returns one of them when the other adds
// nothing.
func UnionSorted[T any](a, b []T, c func(T, T) int) []T {
	if len(b) == 0 {
		return a
	}
	if len(a) == 0 {
		return b
	}
	out := a
	cloned := false
	for _, x := range b {
		if i, found := slices.BinarySearchFunc(out, x, c); !found {
			if !cloned {
				out, cloned = slices.Clone(a), true
			}
			out = slices.Insert(out, i, x)
		}
	}
	return out
}
