package flow

import (
	"go/types"

	"github.com/hiplint/hiplint/internal/cgocall"
)

// IsStatus reports whether values of t may carry whether a runtime call
// succeeded: error (IsErrorLike) or a C status enum (cgocall.IsStatusType).
// An unknown type (nil or invalid: a C type at tier 3, where cgo failed, or
// an expression go/types left untyped there) may be one, so checks of it
// count.
func IsStatus(t types.Type) bool {
	if t == nil || t == types.Typ[types.Invalid] {
		return true
	}
	return isErrorLike(t) || cgocall.IsStatusType(t)
}
