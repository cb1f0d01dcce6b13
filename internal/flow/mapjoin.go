package flow

// Joins of the map-valued parts of dataflow states. Like CloneMap they keep
// empty maps nil, since most of a state's maps are empty at most points.

// joinUnion merges from into *into, as on either of two paths: a key of
// either is kept; the values of a key both hold are combined by merge,
// which may modify and return its first argument; a value only from holds
// is copied by take (nil: as it is).
func joinUnion[K comparable, V any](into *map[K]V, from map[K]V, merge func(a, b V) V, take func(V) V) {
	for k, v := range from {
		w, ok := (*into)[k]
		switch {
		case ok:
			(*into)[k] = merge(w, v)
		case take != nil:
			Put(into, k, take(v))
		default:
			Put(into, k, v)
		}
	}
}

// JoinIntersect keeps in into, as on both of two paths, the keys both hold,
// with their values combined by merge (which may modify and return its
// first argument).
func JoinIntersect[K comparable, V any](into, from map[K]V, merge func(a, b V) V) {
	for k, v := range into {
		if w, ok := from[k]; ok {
			into[k] = merge(v, w)
		} else {
			delete(into, k)
		}
	}
}
