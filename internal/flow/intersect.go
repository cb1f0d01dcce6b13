package flow

import "slices"

// Intersect keeps in a, in its order, the elements that b holds too: the
// join of small sets kept as slices where a fact must hold on both paths
// (queues made to wait, events recorded, event operations made). It may
// modify a's backing array, like slices.DeleteFunc.
func Intersect[T comparable](a, b []T) []T {
	return slices.DeleteFunc(a, func(x T) bool { return !slices.Contains(b, x) })
}
