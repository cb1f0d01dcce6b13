package flow

import "go/types"

// FollowLocals is a Trace.Follow that follows local variables only
// (IsLocalVar): parameters, fields and package variables are where the
// trace stops.
func FollowLocals(v *types.Var) bool {
	_, ok := IsLocalVar(v)
	return ok
}
