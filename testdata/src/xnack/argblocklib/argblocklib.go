// Package argblocklib builds kernel argument blocks for its callers and
// launches kernels with them: its returnsKernelArgs facts carry which
// parameter ends up as a kernel argument to other packages.
package argblocklib

// #cgo CFLAGS: -I${SRCDIR}/../../../include
// #include <hip/hip_runtime_api.h>
// #include <stdlib.h>
import "C"

import "unsafe"

const slot = unsafe.Sizeof(unsafe.Pointer(nil))

// Kernel is the kernel Launch runs.
var Kernel C.hipFunction_t

// Pack lays out one C block as [slots...][data pointer][count]: the
// kernelParams array first, the argument values after it.
func Pack(data unsafe.Pointer, count uint32) (unsafe.Pointer, *unsafe.Pointer) { // want Pack:"returnsSystemMemory\\(result=0\\) returnsKernelArgs\\(result=1, params=0\\)"
	mem := C.malloc(C.size_t(4 * slot))
	slots := (*[2]unsafe.Pointer)(mem)
	*(*unsafe.Pointer)(unsafe.Add(mem, 2*slot)) = data
	*(*uint32)(unsafe.Add(mem, 3*slot)) = count
	slots[0] = unsafe.Add(mem, 2*slot)
	slots[1] = unsafe.Add(mem, 3*slot)
	return mem, &slots[0]
}

// Launch runs Kernel with a kernelParams array the caller built.
func Launch(params *unsafe.Pointer) { // want Launch:"launchesParams\\(args\\(p0\\)\\) initializesHIP"
	C.hipModuleLaunchKernel(Kernel, 1, 1, 1, 32, 1, 1, 0, nil, params, nil)
}

// LaunchArgs runs Kernel with the argument pointers its caller lists, the
// way launch wrappers take them: the variadic slice is the kernelParams
// array.
func LaunchArgs(args ...unsafe.Pointer) { // want LaunchArgs:"launchesParams\\(args\\(p0\\)\\) initializesHIP"
	var kp *unsafe.Pointer
	if len(args) > 0 {
		kp = &args[0]
	}
	C.hipModuleLaunchKernel(Kernel, 1, 1, 1, 32, 1, 1, 0, nil, kp, nil)
}
