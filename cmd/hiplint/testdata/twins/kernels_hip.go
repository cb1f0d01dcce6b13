//go:build !cuda

// Package twins has the same Go API over HIP and, with -tags cuda, over CUDA.
package twins

// #cgo CFLAGS: -D__HIP_PLATFORM_AMD__
// #include <hip/hip_runtime_api.h>
import "C"

import "errors"

func Kernel(path, name *C.char) (uintptr, error) {
	var m C.hipModule_t
	if C.hipModuleLoad(&m, path) != C.hipSuccess { // hazard: HL2001
		return 0, errors.New("load")
	}
	var f C.hipFunction_t
	if C.hipModuleGetFunction(&f, m, name) != C.hipSuccess {
		return 0, errors.New("function")
	}
	C.hipModuleUnload(m)
	return 1, nil
}
