package patterns

/*
#include <stddef.h>
typedef int hipError_t;
typedef int cudaError_t;
typedef struct hipDeviceProp_t {
	char gcnArchName[256];
	int managedMemory;
	int pageableMemoryAccess;
} hipDeviceProp_t;
#define ATTACH_GLOBAL 1
#define CUDA_ATTR_PAGEABLE 88
hipError_t hipMallocManaged(void** ptr, size_t size, unsigned int flags);
hipError_t hipGetDeviceProperties(hipDeviceProp_t* prop, int device);
cudaError_t cudaMallocManaged(void** ptr, size_t size, unsigned int flags);
cudaError_t cudaDeviceGetAttribute(int* value, int attr, int device);
*/
import "C"

import (
	"errors"
	"strings"
	"unsafe"
)

// Style: an interface over several runtimes, with a HIP and a CUDA
// implementation. A call through the interface may reach either: it needs
// what either needs, and guards only if both guard.
type Runtime interface {
	MallocManaged(size int) (unsafe.Pointer, error)
	XNACKEnabled() bool
}

type hipRuntime struct{}

func (hipRuntime) MallocManaged(size int) (unsafe.Pointer, error) { // want MallocManaged:"needsXNACK\\(managed\\) initializesHIP"
	var p unsafe.Pointer
	if C.hipMallocManaged(&p, C.size_t(size), C.ATTACH_GLOBAL) != 0 {
		return nil, errors.New("hipMallocManaged failed")
	}
	return p, nil
}

func (hipRuntime) XNACKEnabled() bool { // want XNACKEnabled:"reportsXNACK\\(result=0\\) initializesHIP"
	var prop C.hipDeviceProp_t
	if C.hipGetDeviceProperties(&prop, 0) != 0 {
		return false
	}
	return strings.Contains(C.GoString(&prop.gcnArchName[0]), "xnack+")
}

// CUDA's managed memory migrates without XNACK: no use.
type cudaRuntime struct{}

func (cudaRuntime) MallocManaged(size int) (unsafe.Pointer, error) {
	var p unsafe.Pointer
	if C.cudaMallocManaged(&p, C.size_t(size), C.ATTACH_GLOBAL) != 0 {
		return nil, errors.New("cudaMallocManaged failed")
	}
	return p, nil
}

func (cudaRuntime) XNACKEnabled() bool { // want XNACKEnabled:"reportsXNACK\\(result=0\\)"
	var v C.int
	if C.cudaDeviceGetAttribute(&v, C.CUDA_ATTR_PAGEABLE, 0) != 0 {
		return false
	}
	return v == 1
}

// Pick returns the runtime of the machine.
func Pick(cuda bool) Runtime {
	if cuda {
		return cudaRuntime{}
	}
	return hipRuntime{}
}

// UseRuntime allocates managed memory through the interface.
func UseRuntime(rt Runtime, size int) error { // want UseRuntime:"needsXNACK\\(managed\\) initializesHIP"
	_, err := rt.MallocManaged(size)
	return err
}

// UseRuntimeGuarded checks through the interface first.
func UseRuntimeGuarded(rt Runtime, size int) error { // want UseRuntimeGuarded:"initializesHIP"
	if !rt.XNACKEnabled() {
		return errNoXNACK
	}
	_, err := rt.MallocManaged(size)
	return err
}
