package cgocall

import (
	"go/types"

	"github.com/hiplint/hiplint/internal/hipapi"
)

// IsAllocNodeParams reports whether t is an alloc node's parameter struct in
// one of the APIs (hipapi.AllocNodeParamsTypes).
func IsAllocNodeParams(t types.Type) bool {
	for _, n := range hipapi.AllocNodeParamsTypes {
		if IsCType(t, n) {
			return true
		}
	}
	return false
}
