package graphfree

// CloneMap copies m, or returns nil when m is empty. Analyzers clone their
// state maps at every block and edge of a fixpoint; most of those maps are
// empty, and a nil map costs nothing to make (docs/performance.md).
func cloneMap[K comparable, V any](m map[K]V) map[K]V {
	if len(m) == 0 {
		return nil
	}
	c := make(map[K]V, len(m))
	for k, v := range m {
		c[k] = v
	}
	return c
}
