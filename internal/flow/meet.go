package flow

import "slices"

// MeetLists is the meet of list summaries over an interface method's
// implementations (Table.Meet): the elements that every summary's list
// holds and keep accepts (keep drops what names the receiver, which belongs
// to each implementation), in the first summary's order.
func MeetLists[F any, T comparable](fs []F, list func(F) []T, keep func(T) bool) []T {
	var common []T
	for i, f := range fs {
		var next []T
		for _, x := range list(f) {
			if keep(x) && (i == 0 || slices.Contains(common, x)) {
				next = append(next, x)
			}
		}
		common = next
	}
	return common
}
