package modulebalance

import "slices"

// Subset reports whether every element of a is in b: AppendNew(b, a...)
// would add nothing.
func subset[T comparable](a, b []T) bool {
	for _, v := range a {
		if !slices.Contains(b, v) {
			return false
		}
	}
	return true
}
