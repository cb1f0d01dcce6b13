//go:build cuda

// Package cudacode is CUDA driver code behind a build tag.
package cudacode

// #cgo LDFLAGS: -lcuda
// #include <cuda.h>
import "C"

func Twice(path *C.char) {
	var m C.CUmodule
	if C.cuModuleLoad(&m, path) != C.CUDA_SUCCESS {
		return
	}
	C.cuModuleUnload(m)
	C.cuModuleUnload(m) // hazard: HL2002
}
