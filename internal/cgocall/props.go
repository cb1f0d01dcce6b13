package cgocall

import (
	"go/types"

	"github.com/hiplint/hiplint/internal/hipapi"
)

// PropFamily returns the family of the device property struct t is (or
// points to), from hipapi.PropTypes; 0 for other types.
func PropFamily(t types.Type) hipapi.Family {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	for _, p := range hipapi.PropTypes {
		if IsCType(t, p.Name) {
			return p.Family
		}
	}
	return 0
}
