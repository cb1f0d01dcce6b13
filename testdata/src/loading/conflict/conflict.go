// Package conflict declares graph memory node types by hand, for ROCm
// releases older than 5.5, without a guard: the declaration clashes with the
// runtime header's ("redefinition of 'struct hipMemAllocNodeParams'"), cgo
// fails, and hiplint analyzes the package from its Go files (tier 3).
package conflict

/*
#include <hip/hip_runtime_api.h>
typedef struct hipMemAllocNodeParams {
	hipMemPoolProps poolProps;
	const hipMemAccessDesc* accessDescs;
	size_t accessDescCount;
	size_t bytesize;
	void* dptr;
} hipMemAllocNodeParams;
*/
import "C"

import "unsafe"

// Load leaks the module it loads.
func Load(image unsafe.Pointer, name *C.char) (C.hipFunction_t, bool) {
	var m C.hipModule_t
	if C.hipModuleLoadData(&m, image) != C.hipSuccess { // hazard: HL2001
		return nil, false
	}
	var f C.hipFunction_t
	if C.hipModuleGetFunction(&f, m, name) != C.hipSuccess {
		return nil, false
	}
	return f, true
}

// Twice unloads the module twice.
func Twice(image unsafe.Pointer) {
	var m C.hipModule_t
	if C.hipModuleLoadData(&m, image) != C.hipSuccess {
		return
	}
	C.hipModuleUnload(m)
	C.hipModuleUnload(m) // hazard: HL2002
}
