package flow

// Put sets (*m)[k] = v, making the map if it is nil: the writing side of
// CloneMap's nil maps.
func Put[K comparable, V any](m *map[K]V, k K, v V) {
	if *m == nil {
		*m = map[K]V{}
	}
	(*m)[k] = v
}
