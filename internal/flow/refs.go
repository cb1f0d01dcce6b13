package flow

import (
	"cmp"
	"slices"
	"strings"
)

// CompareRef orders Refs by parameter (the receiver first), then path: the
// order summaries keep their Refs in, so that equal summaries are equal
// values.
func CompareRef(a, b Ref) int {
	return cmp.Or(cmp.Compare(a.Param, b.Param), strings.Compare(a.Path, b.Path))
}

// Common returns the elements of the first of lists that every other list
// holds too and that keep accepts (nil: all), in the first list's order:
// the meet of summaries that list what every implementation of an
// interface method does.
func Common[T comparable](lists [][]T, keep func(T) bool) []T {
	if len(lists) == 0 {
		return nil
	}
	var out []T
	for _, e := range lists[0] {
		if keep != nil && !keep(e) {
			continue
		}
		if !slices.ContainsFunc(lists[1:], func(l []T) bool { return !slices.Contains(l, e) }) {
			out = append(out, e)
		}
	}
	return out
}
