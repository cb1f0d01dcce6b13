package flow

import "maps"

// ShareValues sets p's Clone, Join and Equal for states that map keys to
// pointers and share what they point to: Clone copies the map, not the
// values; Join copies a value only when merging adds to it (covers(a, b):
// a already holds all that merging b into it would add); Equal compares the
// values with same. The solver clones a state at every block and most
// blocks change few values, so copying every value there was most of what
// such a state cost. A transfer function changes a value only through Own.
func ShareValues[K comparable, V any](p *Problem[map[K]*V], clone func(*V) *V, covers func(a, b *V) bool, merge func(a, b *V) *V, same func(a, b *V) bool) {
	p.Clone = func(s map[K]*V) map[K]*V {
		c := make(map[K]*V, len(s)) // never nil: transfers write into it
		for k, v := range s {
			c[k] = v
		}
		return c
	}
	p.Join = func(into, from map[K]*V) map[K]*V {
		for k, v := range from {
			switch w, ok := into[k]; {
			case !ok:
				into[k] = v
			case !covers(w, v):
				into[k] = merge(clone(w), v)
			}
		}
		return into
	}
	p.Equal = func(a, b map[K]*V) bool { return maps.EqualFunc(a, b, same) }
}

// Own returns m[k] for changing, in a state of ShareValues: a copy made by
// clone, put in its place.
func Own[K comparable, V any](m map[K]*V, k K, clone func(*V) *V) *V {
	v := clone(m[k])
	m[k] = v
	return v
}
