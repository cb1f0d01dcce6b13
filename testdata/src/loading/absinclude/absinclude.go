// Package absinclude includes HIP's runtime header by absolute path into a
// ROCm tree that a machine without ROCm does not have: hiplint serves the
// include with its own declarations of <hip/hip_runtime.h> (internal/synth),
// and the package is analyzed with its C types.
package absinclude

// #include "/opt/rocm-hiplint-absent/include/hip/hip_runtime.h"
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
