package flow

// ClonePointers returns a copy of m whose values point to copies of m's
// values, made by copy (which deep-copies what the copies must not share)
// and allocated in one block instead of one allocation per value. The copy
// is never nil.
func ClonePointers[K comparable, V any](m map[K]*V, copy func(dst, src *V)) map[K]*V {
	out := make(map[K]*V, len(m))
	vs := make([]V, len(m))
	i := 0
	for k, v := range m {
		copy(&vs[i], v)
		out[k] = &vs[i]
		i++
	}
	return out
}
