package flow

import "go/types"

// followLocals is a Trace.Follow that follows local variables only
// (IsLocalVar): parameters, fields and package variables are where the
// trace stops.
func followLocals(v *types.Var) bool {
	_, ok := IsLocalVar(v)
	return ok
}
