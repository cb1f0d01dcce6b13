// Package guarded declares graph memory node types by hand only for HIP
// releases that lack them: with a runtime header that defines HIP_VERSION
// (the real one, or hiplint's) the declarations drop out and cgo succeeds.
package guarded

/*
#include <hip/hip_runtime_api.h>
#if !defined(HIP_VERSION) || HIP_VERSION < 50500000
typedef struct hipMemAllocNodeParams {
	hipMemPoolProps poolProps;
	const hipMemAccessDesc* accessDescs;
	size_t accessDescCount;
	size_t bytesize;
	void* dptr;
} hipMemAllocNodeParams;
#endif
*/
import "C"

import "unsafe"

// Twice unloads the module twice.
func Twice(image unsafe.Pointer) {
	var m C.hipModule_t
	if C.hipModuleLoadData(&m, image) != C.hipSuccess {
		return
	}
	C.hipModuleUnload(m)
	C.hipModuleUnload(m) // hazard: HL2002
}
