package cgocall

import (
	"go/types"

	"github.com/hiplint/hiplint/internal/hipapi"
)

// IsModuleType reports whether t is a module handle type of one of the
// APIs (hipapi.ModuleTypes).
func IsModuleType(t types.Type) bool { return isCTypeIn(t, hipapi.ModuleTypes) }

// IsStatusType reports whether t is the status type of one of the APIs
// (hipapi.StatusTypes).
func IsStatusType(t types.Type) bool { return isCTypeIn(t, hipapi.StatusTypes) }

func isCTypeIn(t types.Type, names []string) bool {
	for _, n := range names {
		if IsCType(t, n) {
			return true
		}
	}
	return false
}
