//go:build cuda

package twins

// #include <cuda.h>
import "C"

import "errors"

func Kernel(path, name *C.char) (uintptr, error) {
	var m C.CUmodule
	if C.cuModuleLoad(&m, path) != C.CUDA_SUCCESS { // hazard: HL2001
		return 0, errors.New("load")
	}
	var f C.CUfunction
	if C.cuModuleGetFunction(&f, m, name) != C.CUDA_SUCCESS {
		return 0, errors.New("function")
	}
	C.cuModuleUnload(m)
	return 1, nil
}
