// Package gpu is the HIP half of a twin-file wrapper: launch_hip.go and
// launch_cuda.go (in twincuda here, since analysistest sees only the default
// build context) implement the same Go API, with prototypes declared by hand.
package gpu

/*
#include <stddef.h>
#include <stdlib.h>
typedef int hipError_t;
typedef struct ihipModuleSymbol_t* hipFunction_t;
typedef struct ihipStream_t* hipStream_t;
#define ATTACH_GLOBAL 1
#define ATTR_PAGEABLE 65
hipError_t hipMallocManaged(void** ptr, size_t size, unsigned int flags);
hipError_t hipDeviceGetAttribute(int* value, int attr, int device);
hipError_t hipModuleLaunchKernel(hipFunction_t f, unsigned int gx, unsigned int gy, unsigned int gz,
	unsigned int bx, unsigned int by, unsigned int bz, unsigned int shared, hipStream_t stream,
	void** args, void** extra);
*/
import "C"

import (
	"fmt"
	"unsafe"
)

var kernel C.hipFunction_t

func check(r C.hipError_t) error {
	if r != 0 {
		return fmt.Errorf("hip error %d", int(r))
	}
	return nil
}

// LaunchHost passes C.malloc memory to a kernel.
func LaunchHost(size int) error { // want LaunchHost:"needsXNACK\\(system\\) initializesHIP"
	buf := C.malloc(C.size_t(size))
	defer C.free(buf)
	args := []unsafe.Pointer{unsafe.Pointer(&buf)}
	return check(C.hipModuleLaunchKernel(kernel, 1, 1, 1, 64, 1, 1, 0, nil, &args[0], nil))
}

// NewManaged allocates managed memory.
func NewManaged(size int) (unsafe.Pointer, error) { // want NewManaged:"needsXNACK\\(managed\\) initializesHIP"
	var p unsafe.Pointer
	err := check(C.hipMallocManaged(&p, C.size_t(size), C.ATTACH_GLOBAL))
	return p, err
}

// PageableAccess reports whether kernels may touch pageable memory.
func PageableAccess() bool { // want PageableAccess:"reportsXNACK\\(result=0\\) initializesHIP"
	var v C.int
	if err := check(C.hipDeviceGetAttribute(&v, C.ATTR_PAGEABLE, 0)); err != nil {
		return false
	}
	return v == 1
}
