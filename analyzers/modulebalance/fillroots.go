package modulebalance

import (
	"github.com/hiplint/hiplint/internal/flow"
	"go/types"
)

// FillRoots returns the set of the roots of m's locations, built in
// *scratch (allocated on first use, cleared each time): a transfer function
// that asks UsedOutside about the variables of its state at every node
// reuses one set instead of allocating one per node.
func fillRoots[V any](scratch *map[types.Object]bool, m map[flow.Loc]V) map[types.Object]bool {
	if *scratch == nil {
		*scratch = map[types.Object]bool{}
	}
	clear(*scratch)
	for l := range m {
		(*scratch)[l.Root] = true
	}
	return *scratch
}
