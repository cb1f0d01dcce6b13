// Package hipuses is a cgo smoke test of hiplint's HIP declarations
// (testdata/include): it uses, through cgo, the names and struct shapes
// public Go HIP code uses. internal/hipapi's TestCgoSmoke type-checks it
// with cgo against the fixture headers; it is never linked.
package hipuses

// #include <stdlib.h>
// #include <hip/hip_runtime.h>
//
// #if HIP_VERSION < 50500000
// #error "the fixture must report a current ROCm"
// #endif
import "C"

import "unsafe"

// Version is HIP_VERSION, a macro constant.
const Version = C.HIP_VERSION

// DeviceInfo reads what device-query code reads.
func DeviceInfo(dev C.int) (string, string, int, error) {
	var prop C.hipDeviceProp_t
	if st := C.hipGetDeviceProperties(&prop, dev); st != C.hipSuccess {
		return "", "", 0, errorOf(st)
	}
	var name [256]C.char
	if st := C.hipDeviceGetName(&name[0], C.int(len(name)), C.hipDevice_t(dev)); st != C.hipSuccess {
		return "", "", 0, errorOf(st)
	}
	var cus C.int
	C.hipDeviceGetAttribute(&cus, C.hipDeviceAttributeMultiprocessorCount, dev)
	arch := C.GoString(&prop.gcnArchName[0])
	return C.GoString(&name[0]), arch, int(cus) + int(prop.major)*0 + int(prop.totalGlobalMem>>60), nil
}

func errorOf(st C.hipError_t) error {
	if st == C.hipErrorNotReady || st == C.hipErrorOutOfMemory {
		return nil
	}
	return &hipError{C.GoString(C.hipGetErrorString(st))}
}

type hipError struct{ s string }

func (e *hipError) Error() string { return e.s }

// Launch packs arguments the HIP_LAUNCH_PARAM way.
func Launch(f C.hipFunction_t, args unsafe.Pointer, size C.size_t, stream C.hipStream_t) C.hipError_t {
	extra := []unsafe.Pointer{
		C.HIP_LAUNCH_PARAM_BUFFER_POINTER, args,
		C.HIP_LAUNCH_PARAM_BUFFER_SIZE, unsafe.Pointer(&size),
		C.HIP_LAUNCH_PARAM_END,
	}
	return C.hipModuleLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, stream, nil, (*unsafe.Pointer)(unsafe.Pointer(&extra[0])))
}

// Copy3D fills a driver-style 3D copy.
func Copy3D(dst, src C.hipDeviceptr_t, w, h, d C.size_t, stream C.hipStream_t) C.hipError_t {
	var p C.HIP_MEMCPY3D
	p.srcMemoryType = C.hipMemoryTypeDevice
	p.srcDevice = src
	p.dstMemoryType = C.hipMemoryTypeDevice
	p.dstDevice = dst
	p.WidthInBytes, p.Height, p.Depth = w, h, d
	return C.hipDrvMemcpy3DAsync(&p, stream)
}

// GraphMemNodes builds an alloc and a free node, as graph code does.
func GraphMemNodes(g C.hipGraph_t, dev C.int, n C.size_t) (C.hipGraphNode_t, error) {
	var params C.hipMemAllocNodeParams
	params.poolProps.allocType = C.hipMemAllocationTypePinned
	params.poolProps.location._type = C.hipMemLocationTypeDevice
	params.poolProps.location.id = dev
	params.bytesize = n
	var alloc, free C.hipGraphNode_t
	if st := C.hipGraphAddMemAllocNode(&alloc, g, nil, 0, &params); st != C.hipSuccess {
		return nil, errorOf(st)
	}
	if st := C.hipGraphAddMemFreeNode(&free, g, &alloc, 1, params.dptr); st != C.hipSuccess {
		return nil, errorOf(st)
	}
	var count C.size_t
	C.hipGraphGetNodes(g, nil, &count)
	return free, nil
}

// Memory uses the C library names the header pulls in.
func Memory() (uintptr, C.uint32_t) {
	p := C.malloc(16)
	defer C.free(p)
	var free, total C.size_t
	C.hipMemGetInfo(&free, &total)
	C.hipMemsetD32(C.hipDeviceptr_t(p), 0, 4)
	return uintptr(C.uintptr_t(uintptr(p))), C.uint32_t(free)
}
