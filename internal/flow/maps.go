package flow

// CloneMap copies m, or returns nil when m is empty. Analyzers clone their
// state maps at every block and edge of a fixpoint; most of those maps are
// empty, and a nil map costs nothing to make (docs/performance.md).
func CloneMap[K comparable, V any](m map[K]V) map[K]V {
	if len(m) == 0 {
		return nil
	}
	c := make(map[K]V, len(m))
	for k, v := range m {
		c[k] = v
	}
	return c
}

// Put sets (*m)[k] = v, making the map if it is nil: the writing side of
// CloneMap's nil maps.
func Put[K comparable, V any](m *map[K]V, k K, v V) {
	if *m == nil {
		*m = map[K]V{}
	}
	(*m)[k] = v
}
