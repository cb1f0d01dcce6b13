// Package platform includes HIP's real header without a platform macro
// (hipcc defines __HIP_PLATFORM_AMD__; this package's preamble does not):
// hiplint defines it as hipcc does (internal/synth) and the package is
// analyzed with the real header's C types.
package platform

// #include <hip/hip_runtime_api.h>
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
