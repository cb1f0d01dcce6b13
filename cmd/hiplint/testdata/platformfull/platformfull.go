// Package platformfull includes HIP's whole real header, hip_runtime.h,
// without a platform macro: gcc stops at four platform #errors there and
// names the include chain in full only for the first, so each of them must
// be traced back to the same preamble line (internal/synth) for hiplint to
// define __HIP_PLATFORM_AMD__ as hipcc does.
package platformfull

// #include <hip/hip_runtime.h>
import "C"

import (
	"errors"
	"unsafe"
)

// Load leaks the module it loads.
func Load(image unsafe.Pointer) error {
	var m C.hipModule_t
	if C.hipModuleLoadData(&m, image) != C.hipSuccess { // hazard: HL2001
		return errors.New("load failed")
	}
	return nil
}

// LoadAndUnload is the safe twin.
func LoadAndUnload(image unsafe.Pointer) error {
	var m C.hipModule_t
	if C.hipModuleLoadData(&m, image) != C.hipSuccess {
		return errors.New("load failed")
	}
	C.hipModuleUnload(m)
	return nil
}
