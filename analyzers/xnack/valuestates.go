package xnack

import "github.com/hiplint/hiplint/internal/flow"

// ValueStates completes p for states that are comparable values, copied
// by assignment: Clone returns the state as it is and Equal is ==.
func valueStates[S comparable](p flow.Problem[S]) flow.Problem[S] {
	p.Clone = func(s S) S { return s }
	p.Equal = func(a, b S) bool { return a == b }
	return p
}
