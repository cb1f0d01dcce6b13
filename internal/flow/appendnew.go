package flow

import "slices"

// AppendNew appends to s those of vs it does not hold yet, in their order,
// each once: a small set kept as a slice (sites, status keys) grows without
// duplicates. It may modify s's backing array like append.
func AppendNew[T comparable](s []T, vs ...T) []T {
	for _, v := range vs {
		if !slices.Contains(s, v) {
			s = append(s, v)
		}
	}
	return s
}
