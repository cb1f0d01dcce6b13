package flow

import "slices"

// MeetLists is the meet of list summaries over an interface method's
// implementations (Table.Meet): the elements that every summary's list
// holds and keep accepts (keep drops what names the receiver, which belongs
// to each implementation), in the first summary's order.
func MeetLists[F any, T comparable](fs []F, list func(F) []T, keep func(T) bool) []T {
	return MeetListsFunc(fs, list, keep, func(a, b T) bool { return a == b }, func(kept, _ T) T { return kept })
}

// MeetListsFunc is MeetLists for elements that are the same under same
// rather than equal (the same copy made through the HIP or the CUDA form):
// of the elements every summary has, pick chooses which stands for them,
// between the one kept so far and the next summary's. The order is that of
// the last summary's list, as for MeetLists.
func MeetListsFunc[F, T any](fs []F, list func(F) []T, keep func(T) bool, same func(a, b T) bool, pick func(kept, x T) T) []T {
	var common []T
	for i, f := range fs {
		var next []T
		for _, x := range list(f) {
			if !keep(x) {
				continue
			}
			if i == 0 {
				next = append(next, x)
			} else if j := slices.IndexFunc(common, func(c T) bool { return same(c, x) }); j >= 0 {
				next = append(next, pick(common[j], x))
			}
		}
		common = next
	}
	return common
}
