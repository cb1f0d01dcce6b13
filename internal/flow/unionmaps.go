package flow

import "maps"

// UnionMaps sets p's Clone, Join and Equal for states that map keys to
// pointers to values, a key standing for what may be true on some path:
// Clone copies every value with copy, in one allocation (ClonePointers);
// Join keeps the keys of either path, merging the values of a key both hold
// (merge may modify and return its first argument) and copying a value only
// from holds; Equal compares the keys and, with same, their values.
func UnionMaps[K comparable, V any](p *Problem[map[K]*V], copy func(dst, src *V), merge func(a, b *V) *V, same func(a, b *V) bool) {
	take := func(v *V) *V {
		c := new(V)
		copy(c, v)
		return c
	}
	p.Clone = func(s map[K]*V) map[K]*V { return ClonePointers(s, copy) }
	p.Join = func(into, from map[K]*V) map[K]*V {
		JoinUnion(&into, from, merge, take)
		return into
	}
	p.Equal = func(a, b map[K]*V) bool { return maps.EqualFunc(a, b, same) }
}
