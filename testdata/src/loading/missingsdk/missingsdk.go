// Package missingsdk includes an SDK header that no machine without CUDA
// has: cgo fails, and hiplint analyzes the package from its Go files
// (tier 3). The hazards below need no C type to be seen.
package missingsdk

// #include <hip/hip_runtime_api.h>
// #include <cublas_v2.h>
import "C"

import (
	"errors"
	"unsafe"
)

// Handle is a cuBLAS handle: its type is unknown at tier 3.
type Handle struct{ h C.cublasHandle_t }

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

// CopyDtoD copies between device buffers and returns before the data lands.
func CopyDtoD(dst, src unsafe.Pointer, n int) {
	C.hipMemcpy(dst, src, C.size_t(n), C.hipMemcpyDeviceToDevice)
}

// Sync waits for the device.
func Sync() { C.hipDeviceSynchronize() }
