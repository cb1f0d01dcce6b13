package cgocall

import (
	"go/types"

	"github.com/hiplint/hiplint/internal/hipapi"
)

// DeviceAttr returns the attribute a device attribute query c
// (hipDeviceGetAttribute, cudaDeviceGetAttribute, cuDeviceGetAttribute)
// reads: by the enum constant's name, or, for a local macro or a number
// (prototypes declared by hand, #define ATTR_PAGEABLE 65), by its value in
// the function's family.
func DeviceAttr(info *types.Info, c *Call) (hipapi.Const, bool) {
	arg := c.Arg(c.Func.Attr)
	name, named := ConstName(info, arg)
	if named {
		if k, ok := hipapi.LookupConst(name); ok || hipapi.IsRuntimeName(name) {
			return k, ok
		}
	}
	v, ok := IntValue(info, arg)
	if !ok {
		return hipapi.Const{}, false
	}
	return hipapi.AttrByValue(c.Func.Family, v)
}
