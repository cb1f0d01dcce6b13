package flow

import "go/types"

// isErrorLike reports whether t is error or an interface type that
// implements it (type Result interface{ error; Code() uint32 }): a value of
// it is nil exactly when the error it converts to is.
func isErrorLike(t types.Type) bool {
	if t == nil {
		return false
	}
	if IsError(t) {
		return true
	}
	errType := types.Universe.Lookup("error").Type().Underlying().(*types.Interface)
	_, isIface := t.Underlying().(*types.Interface)
	return isIface && types.Implements(t, errType)
}
