// Package hipcode includes the runtime headers the way real code does, with
// no include path of its own: it builds only where the headers are found.
package hipcode

// #cgo CFLAGS: -D__HIP_PLATFORM_AMD__
// #include <hip/hip_runtime_api.h>
// #include <cuda.h>
import "C"

func Load(path *C.char) C.hipError_t {
	var m C.hipModule_t
	return C.hipModuleLoad(&m, path)
}

func Sync() C.CUresult { return C.cuCtxSynchronize() }
