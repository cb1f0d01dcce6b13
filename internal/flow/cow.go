package flow

import "maps"

// COW is a map that the states of a dataflow problem share until one of
// them writes: Clone copies nothing, and the first write after it (Edit)
// copies the map for the writer. The solver clones a state at every block
// and most blocks change few of its maps, so copying each map at each clone
// was most of what an analyzer allocated (docs/performance.md). The zero
// COW is an empty map.
type COW[K comparable, V any] struct {
	m      map[K]V
	shared bool // m may be another COW's too: copy before writing
}

// Clone returns a COW with c's contents, sharing c's map until either
// writes.
func (c *COW[K, V]) Clone() COW[K, V] {
	c.shared = c.m != nil
	return COW[K, V]{m: c.m, shared: c.shared}
}

// Map returns the contents for reading; the caller must not change them.
func (c COW[K, V]) Map() map[K]V { return c.m }

// Len is the number of keys.
func (c COW[K, V]) Len() int { return len(c.m) }

// Get returns the value of k.
func (c COW[K, V]) Get(k K) (V, bool) {
	v, ok := c.m[k]
	return v, ok
}

// Edit returns the contents for changing: c's own map, copied first if it
// is shared, made if there is none.
func (c *COW[K, V]) Edit() map[K]V {
	switch {
	case c.shared:
		c.m, c.shared = maps.Clone(c.m), false
	case c.m == nil:
		c.m = map[K]V{}
	}
	return c.m
}

// Set sets k's value.
func (c *COW[K, V]) Set(k K, v V) { c.Edit()[k] = v }

// Delete removes k, copying nothing when c has no k.
func (c *COW[K, V]) Delete(k K) {
	if _, ok := c.m[k]; ok {
		delete(c.Edit(), k)
	}
}

// JoinUnion is the function JoinUnion on c's contents: it writes (and so
// copies a shared map) only when from has keys.
func (c *COW[K, V]) JoinUnion(from COW[K, V], merge func(a, b V) V, take func(V) V) {
	if from.Len() == 0 {
		return
	}
	m := c.Edit()
	joinUnion(&m, from.m, merge, take)
}

// JoinIntersect is the function JoinIntersect on c's contents: it writes
// (and so copies a shared map) only when c has keys. merge must not change
// the values it is given: they may be shared too.
func (c *COW[K, V]) JoinIntersect(from COW[K, V], merge func(a, b V) V) {
	if c.Len() == 0 {
		return
	}
	JoinIntersect(c.Edit(), from.m, merge)
}
