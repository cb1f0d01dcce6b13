// Package hipnames uses, through cgo, names of the HIP runtime API that
// hiplint's declarations lacked before issue 30 (the include guard of
// hip_runtime.h, hipJitOptionNumOptions, HIP 5's gcnArch field,
// make_hipExtent): with them the package keeps its C types, and the copy
// hazard below, which needs the value of hipMemcpyDeviceToDevice, is found.
package hipnames

/*
#include <hip/hip_runtime.h>
#ifndef HIP_INCLUDE_HIP_HIP_RUNTIME_H
#error "hip/hip_runtime.h is not included"
#endif
*/
import "C"

import "unsafe"

// NumJitOptions sizes a JIT option array.
const NumJitOptions = C.hipJitOptionNumOptions

// Arch is HIP 5's architecture number of dev.
func Arch(dev C.int) int {
	var prop C.hipDeviceProp_t
	if C.hipGetDeviceProperties(&prop, dev) != C.hipSuccess {
		return 0
	}
	return int(prop.gcnArch)
}

// Extent builds a 3D extent.
func Extent(w, h, d C.size_t) C.hipExtent { return C.make_hipExtent(w, h, d) }

// ReadBack copies a device buffer to another and reads the copy back on a
// non-blocking stream, which does not wait for the device-to-device copy.
func ReadBack(host []byte, n C.size_t) {
	var src, dst unsafe.Pointer
	var s C.hipStream_t
	C.hipMalloc(&src, n)
	C.hipMalloc(&dst, n)
	C.hipStreamCreateWithFlags(&s, C.hipStreamNonBlocking)
	C.hipMemcpy(dst, src, n, C.hipMemcpyDeviceToDevice)
	C.hipMemcpyDtoHAsync(unsafe.Pointer(&host[0]), C.hipDeviceptr_t(dst), n, s) // hazard: HL1001
	C.hipStreamSynchronize(s)
}
