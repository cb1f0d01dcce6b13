// Package cudauses is a cgo smoke test of hiplint's CUDA declarations
// (testdata/include): it uses, through cgo, the driver and runtime names and
// struct shapes public Go CUDA code uses. internal/hipapi's TestCgoSmoke
// type-checks it with cgo against the fixture headers; it is never linked.
package cudauses

// #include <stdlib.h>
// #include <cuda.h>
// #include <cuda_runtime.h>
// #include <driver_types.h>
//
// #if CUDA_VERSION < 11000
// #error "the fixture must report a current CUDA"
// #endif
import "C"

import "unsafe"

// Version is CUDA_VERSION, a macro constant.
const Version = C.CUDA_VERSION

// Driver walks the driver API as gorgonia/cu and mumax/3 do.
func Driver(image unsafe.Pointer) C.CUresult {
	if r := C.cuInit(0); r != C.CUDA_SUCCESS {
		return r
	}
	var dev C.CUdevice
	C.cuDeviceGet(&dev, 0)
	var name [128]C.char
	C.cuDeviceGetName(&name[0], C.int(len(name)), dev)
	var major C.int
	C.cuDeviceGetAttribute(&major, C.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev)
	var ctx C.CUcontext
	C.cuCtxCreate(&ctx, C.CU_CTX_SCHED_BLOCKING_SYNC, dev)
	defer C.cuCtxDestroy(ctx)
	var mod C.CUmodule
	if r := C.cuModuleLoadData(&mod, image); r != C.CUDA_SUCCESS {
		return r
	}
	defer C.cuModuleUnload(mod)
	var f C.CUfunction
	C.cuModuleGetFunction(&f, mod, (*C.char)(unsafe.Pointer(&name[0])))
	var ptr C.CUdeviceptr
	C.cuMemAlloc(&ptr, 1024)
	defer C.cuMemFree(ptr)
	args := []unsafe.Pointer{unsafe.Pointer(&ptr)}
	var start, stop C.CUevent
	C.cuEventCreate(&start, C.CU_EVENT_DEFAULT)
	C.cuEventCreate(&stop, C.CU_EVENT_DEFAULT)
	C.cuEventRecord(start, nil)
	r := C.cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, nil, &args[0], nil)
	C.cuEventRecord(stop, nil)
	C.cuEventSynchronize(stop)
	var ms C.float
	C.cuEventElapsedTime(&ms, start, stop)
	if r == C.CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES || r == C.CUDA_ERROR_INVALID_VALUE {
		var s *C.char
		C.cuGetErrorString(r, &s)
	}
	return r
}

// Copy3D sets every field of CUDA_MEMCPY3D, reserved ones included, as
// mumax/3 does.
func Copy3D(dst, src C.CUdeviceptr, w, h, d C.size_t) C.CUresult {
	var p C.CUDA_MEMCPY3D
	p.srcXInBytes, p.srcY, p.srcZ, p.srcLOD = 0, 0, 0, 0
	p.srcMemoryType = C.CU_MEMORYTYPE_DEVICE
	p.srcDevice = src
	p.reserved0 = nil
	p.dstMemoryType = C.CU_MEMORYTYPE_DEVICE
	p.dstDevice = dst
	p.reserved1 = nil
	p.WidthInBytes, p.Height, p.Depth = w, h, d
	var q C.CUDA_MEMCPY2D
	q.srcMemoryType = C.CU_MEMORYTYPE_HOST
	q.WidthInBytes, q.Height = w, h
	C.cuMemcpy2D(&q)
	return C.cuMemcpy3D(&p)
}

// Link uses the JIT linker.
func Link(ptx unsafe.Pointer, n C.size_t) C.CUresult {
	var state C.CUlinkState
	opts := []C.CUjit_option{C.CU_JIT_ERROR_LOG_BUFFER}
	vals := []unsafe.Pointer{nil}
	C.cuLinkCreate(1, &opts[0], &vals[0], &state)
	defer C.cuLinkDestroy(state)
	C.cuLinkAddData(state, C.CU_JIT_INPUT_PTX, ptx, n, nil, 0, nil, nil)
	var cubin unsafe.Pointer
	var size C.size_t
	return C.cuLinkComplete(state, &cubin, &size)
}

// LaunchEx fills a launch configuration.
func LaunchEx(f C.CUfunction, stream C.CUstream) C.CUresult {
	var attr C.CUlaunchAttribute
	attr.id = C.CU_LAUNCH_ATTRIBUTE_COOPERATIVE
	cfg := C.CUlaunchConfig{gridDimX: 1, gridDimY: 1, gridDimZ: 1, blockDimX: 32, blockDimY: 1, blockDimZ: 1, hStream: stream, attrs: &attr, numAttrs: 1}
	return C.cuLaunchKernelEx(&cfg, f, nil, nil)
}

// Runtime walks the runtime API.
func Runtime() (string, C.cudaError_t) {
	var prop C.struct_cudaDeviceProp
	if e := C.cudaGetDeviceProperties(&prop, 0); e != C.cudaSuccess {
		return C.GoString(C.cudaGetErrorString(e)), e
	}
	var v C.int
	C.cudaDeviceGetAttribute(&v, C.cudaDevAttrMultiProcessorCount, 0)
	var free, total C.size_t
	C.cudaMemGetInfo(&free, &total)
	buf := C.malloc(4096)
	defer C.free(buf)
	C.cudaHostRegister(buf, 4096, C.cudaHostRegisterMapped)
	defer C.cudaHostUnregister(buf)
	var s C.cudaStream_t
	C.cudaStreamCreateWithFlags(&s, C.cudaStreamNonBlocking)
	defer C.cudaStreamDestroy(s)
	var d unsafe.Pointer
	C.cudaMallocAsync(&d, 4096, s)
	C.cudaMemcpyAsync(d, buf, 4096, C.cudaMemcpyHostToDevice, s)
	C.cudaFreeAsync(d, s)
	var g C.cudaGraph_t
	C.cudaStreamBeginCapture(s, C.cudaStreamCaptureModeGlobal)
	C.cudaStreamEndCapture(s, &g)
	var exec C.cudaGraphExec_t
	C.cudaGraphInstantiate(&exec, g, 0)
	C.cudaGraphLaunch(exec, s)
	var attrs C.struct_cudaPointerAttributes
	C.cudaPointerGetAttributes(&attrs, d)
	_ = attrs._type == C.cudaMemoryTypeDevice
	return C.GoString(&prop.name[0]), C.cudaGetLastError()
}
