//go:build rocm

// Package hipcode is GPU code behind a build tag, with no include path of
// its own: it relies on the machine's HIP headers, which CI runners lack.
package hipcode

// #cgo CFLAGS: -D__HIP_PLATFORM_AMD__
// #cgo LDFLAGS: -lamdhip64
// #include <hip/hip_runtime_api.h>
import "C"

import "errors"

func Kernel(path, name *C.char) (C.hipFunction_t, error) {
	var m C.hipModule_t
	if C.hipModuleLoad(&m, path) != C.hipSuccess { // hazard: HL2001
		return nil, errors.New("load")
	}
	var f C.hipFunction_t
	if C.hipModuleGetFunction(&f, m, name) != C.hipSuccess {
		return nil, errors.New("function")
	}
	return f, nil
}
