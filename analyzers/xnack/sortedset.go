package xnack

import "slices"

// SortedSet sorts xs in place by c, stably, and keeps the first of each
// run of elements that c finds equal: a summary's list, in one order and
// without repeats, each the first found.
func sortedSet[T any](xs []T, c func(a, b T) int) []T {
	slices.SortStableFunc(xs, c)
	return slices.CompactFunc(xs, func(a, b T) bool { return c(a, b) == 0 })
}
