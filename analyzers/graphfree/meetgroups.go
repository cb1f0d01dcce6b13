package graphfree

// MeetGroups is the meet over an interface method's implementations
// (Table.Meet) of list summaries whose elements come in groups by key (a
// result's or parameter's position): a group is kept, with the elements
// every summary has in it, when every summary has the group and agree
// accepts those elements together; otherwise the position is unknown and
// left out. Groups come in the first summary's order, each group's
// elements in the summaries' order.
func meetGroups[F, T any, K comparable](fs []F, list func(F) []T, key func(T) K, agree func([]T) bool) []T {
	if len(fs) == 0 {
		return nil
	}
	groups := make([]map[K][]T, len(fs))
	for i, f := range fs {
		groups[i] = map[K][]T{}
		for _, x := range list(f) {
			groups[i][key(x)] = append(groups[i][key(x)], x)
		}
	}
	var out []T
	done := map[K]bool{}
	for _, x := range list(fs[0]) {
		k := key(x)
		if done[k] {
			continue
		}
		done[k] = true
		var all []T
		for _, g := range groups {
			xs, ok := g[k]
			if !ok {
				all = nil
				break
			}
			all = append(all, xs...)
		}
		if all != nil && agree(all) {
			out = append(out, all...)
		}
	}
	return out
}
