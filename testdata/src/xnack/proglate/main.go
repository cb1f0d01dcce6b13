// Command proglate sets HSA_XNACK after hipGetDeviceCount: no effect.
package main

// #cgo CFLAGS: -I${SRCDIR}/../../../include
// #include <hip/hip_runtime_api.h>
import "C"

import (
	"os"
	"unsafe"
)

func main() {
	var n C.int
	C.hipGetDeviceCount(&n)
	os.Setenv("HSA_XNACK", "1") // want `HSA_XNACK is set after a HIP runtime call has already run on this path`
	var p unsafe.Pointer
	C.hipMallocManaged(&p, 1024, C.hipMemAttachGlobal) // want `main uses managed memory \(hipMallocManaged\) without an XNACK guard`
	C.hipMemPrefetchAsync(p, 1024, 0, nil)
}
