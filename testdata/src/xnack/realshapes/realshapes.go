// Package realshapes holds the XNACK shapes of library-style code: guard
// helpers that return an error, kernel argument arrays built in C memory
// (the usual way around cgo's pointer rules), and slices whose data is
// handed to a kernel.
package realshapes

// #cgo CFLAGS: -I${SRCDIR}/../../../include
// #include <hip/hip_runtime_api.h>
// #include <stdlib.h>
import "C"

import (
	"errors"
	"fmt"
	"strings"
	"unsafe"
)

var fn C.hipFunction_t

const ptrSize = C.size_t(unsafe.Sizeof(uintptr(0)))

func check(r C.hipError_t) error {
	if r != C.hipSuccess {
		return fmt.Errorf("hip error %d", int(r))
	}
	return nil
}

// RequireXNACK returns nil only when the device runs with XNACK on.
func RequireXNACK(dev int) error { // want RequireXNACK:"errUnlessXNACK\\(result=0\\) initializesHIP"
	var prop C.hipDeviceProp_t
	if err := check(C.hipGetDeviceProperties(&prop, C.int(dev))); err != nil {
		return err
	}
	if !strings.Contains(C.GoString(&prop.gcnArchName[0]), "xnack+") {
		return errors.New("XNACK is off")
	}
	return nil
}

// requirePageable checks the pageable-memory attribute.
func requirePageable(dev int) error {
	var v C.int
	if r := C.hipDeviceGetAttribute(&v, C.hipDeviceAttributePageableMemoryAccess, C.int(dev)); r != C.hipSuccess {
		return fmt.Errorf("hip error %d", int(r))
	}
	if v != 1 {
		return errors.New("no pageable memory access")
	}
	return nil
}

// requireManaged checks the wrong attribute: managed memory support says
// nothing about XNACK.
func requireManaged(dev int) error {
	var v C.int
	C.hipDeviceGetAttribute(&v, C.hipDeviceAttributeManagedMemory, C.int(dev))
	if v == 0 {
		return errors.New("no managed memory")
	}
	return nil
}

// notAGuard returns nil whatever XNACK is.
func notAGuard(dev int) error {
	var prop C.hipDeviceProp_t
	return check(C.hipGetDeviceProperties(&prop, C.int(dev)))
}

// LaunchCArgsMalloc builds the argument array in C memory: the value array
// holds a C.malloc pointer, which the kernel dereferences.
func LaunchCArgsMalloc(n int) { // want LaunchCArgsMalloc:"needsXNACK\\(system\\) initializesHIP"
	buf := C.malloc(C.size_t(n * 4))
	vals := C.malloc(ptrSize)
	*(*unsafe.Pointer)(vals) = buf
	args := (*[1]unsafe.Pointer)(C.malloc(ptrSize))
	args[0] = vals
	C.hipModuleLaunchKernel(fn, 1, 1, 1, 64, 1, 1, 0, nil, &args[0], nil)
}

// LaunchCArgsDevice is the twin with device memory in the value array.
func LaunchCArgsDevice(n int) { // want LaunchCArgsDevice:"initializesHIP"
	var d unsafe.Pointer
	C.hipMalloc(&d, C.size_t(n*4))
	vals := C.malloc(ptrSize)
	*(*unsafe.Pointer)(vals) = d
	args := (*[1]unsafe.Pointer)(C.malloc(ptrSize))
	args[0] = vals
	C.hipModuleLaunchKernel(fn, 1, 1, 1, 64, 1, 1, 0, nil, &args[0], nil)
}

// LaunchCArray writes the pointers straight into a C array.
func LaunchCArray(n int) { // want LaunchCArray:"needsXNACK\\(system\\) initializesHIP"
	host := C.malloc(C.size_t(n * 4))
	args := unsafe.Slice((*unsafe.Pointer)(C.malloc(2*ptrSize)), 2)
	args[0] = host
	C.hipModuleLaunchKernel(fn, 1, 1, 1, 64, 1, 1, 0, nil, &args[0], nil)
}

// LaunchCArrayDevice is its twin with device memory.
func LaunchCArrayDevice(n int) { // want LaunchCArrayDevice:"initializesHIP"
	var d unsafe.Pointer
	C.hipMalloc(&d, C.size_t(n*4))
	args := unsafe.Slice((*unsafe.Pointer)(C.malloc(2*ptrSize)), 2)
	args[0] = d
	C.hipModuleLaunchKernel(fn, 1, 1, 1, 64, 1, 1, 0, nil, &args[0], nil)
}

// LaunchSlice hands a slice's data to a kernel.
func LaunchSlice(x []float32) { // want LaunchSlice:"launchesParams\\(p0\\) initializesHIP"
	p := unsafe.SliceData(x)
	args := []unsafe.Pointer{unsafe.Pointer(&p)}
	C.hipModuleLaunchKernel(fn, 1, 1, 1, 64, 1, 1, 0, nil, &args[0], nil)
}

// LaunchDevice hands device memory to a kernel.
func LaunchDevice(d unsafe.Pointer) { // want LaunchDevice:"launchesParams\\(p0\\) initializesHIP"
	args := []unsafe.Pointer{unsafe.Pointer(&d)}
	C.hipModuleLaunchKernel(fn, 1, 1, 1, 64, 1, 1, 0, nil, &args[0], nil)
}

// DeviceAlloc returns device memory.
func DeviceAlloc(n int) unsafe.Pointer { // want DeviceAlloc:"initializesHIP"
	var d unsafe.Pointer
	C.hipMalloc(&d, C.size_t(n))
	return d
}

// run returns an error unless XNACK is on, and launches only then.
func run() error {
	if err := requirePageable(0); err != nil {
		return err
	}
	LaunchCArgsMalloc(16)
	return nil
}

// namedResult returns its named result, which is nil when the query
// succeeded, whatever XNACK is: no guard.
func namedResult(dev int) (err error) {
	var prop C.hipDeviceProp_t
	err = check(C.hipGetDeviceProperties(&prop, C.int(dev)))
	if strings.Contains(C.GoString(&prop.gcnArchName[0]), "xnack+") {
		return nil
	}
	return err
}
