package xnack

import "go/types"

// firstResult is of(i) for the first result i among results whose type
// is accepts and for which of finds something (not nil): a summary of
// the one result of a kind that a function returns (a guard's boolean, an
// error, a pointer).
func firstResult[T any](results *types.Tuple, is func(types.Type) bool, of func(i int) *T) *T {
	for i := range results.Len() {
		if !is(results.At(i).Type()) {
			continue
		}
		if out := of(i); out != nil {
			return out
		}
	}
	return nil
}

// isBool reports whether t is a boolean type (bool, or a type defined as
// one).
func isBool(t types.Type) bool { return types.Identical(t.Underlying(), types.Typ[types.Bool]) }
