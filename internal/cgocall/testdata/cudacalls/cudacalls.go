// Package cudacalls calls the CUDA runtime and driver APIs through the
// fixture headers testdata/include/cuda_runtime_api.h and cuda.h. As in the
// real cuda.h, cuMemAlloc is a macro for cuMemAlloc_v2: the user writes
// C.cuMemAlloc and cgo calls _Cfunc_cuMemAlloc. Annotations as in hipcalls.
package cudacalls

/*
#cgo CFLAGS: -I${SRCDIR}/../../../../testdata/include
#include <cuda.h>
#include <cuda_runtime_api.h>
*/
import "C"

import "unsafe"

// Runtime uses the CUDA runtime API.
func Runtime(n C.size_t, host []float32, s C.cudaStream_t) error {
	var d unsafe.Pointer
	C.cudaMalloc(&d, n)                                                    // call: cudaMalloc &d | n
	C.cudaMemcpy(d, unsafe.Pointer(&host[0]), n, C.cudaMemcpyHostToDevice) // call: cudaMemcpy d | unsafe.Pointer(&host[0]) | n | C.cudaMemcpyHostToDevice // kind: cudaMemcpyHostToDevice=1
	C.cudaMemcpyAsync(d, d, n, C.cudaMemcpyDeviceToDevice, s)              // call: cudaMemcpyAsync d | d | n | C.cudaMemcpyDeviceToDevice | s // kind: cudaMemcpyDeviceToDevice=3
	C.cudaMemcpy(d, d, n, C.enum_cudaMemcpyKind(C.cudaMemcpyDefault))      // call: cudaMemcpy d | d | n | C.enum_cudaMemcpyKind(C.cudaMemcpyDefault) // kind: -=4
	C.cudaStreamSynchronize(s)                                             // call: cudaStreamSynchronize s
	defer C.cudaFree(d)                                                    // call: cudaFree d
	if r := C.cudaDeviceSynchronize(); r != C.cudaSuccess {                // call: cudaDeviceSynchronize
		return nil
	}
	return nil
}

// Driver uses the CUDA driver API, whose device pointers are integers: no
// pointer check, so cgo calls these directly.
func Driver(n C.size_t, host []byte, s C.CUstream) C.CUresult {
	var dptr C.CUdeviceptr
	C.cuInit(0)                                       // call: cuInit 0
	C.cuMemAlloc(&dptr, n)                            // call: cuMemAlloc &dptr | n
	C.cuMemAlloc_v2(&dptr, n)                         // call: cuMemAlloc_v2 &dptr | n
	C.cuMemcpyHtoD(dptr, unsafe.Pointer(&host[0]), n) // call: cuMemcpyHtoD dptr | unsafe.Pointer(&host[0]) | n
	C.cuMemcpyDtoDAsync(dptr, dptr, n, s)             // call: cuMemcpyDtoDAsync dptr | dptr | n | s
	var m C.CUmodule
	var f C.CUfunction
	C.cuModuleLoad(&m, nil)   // call: cuModuleLoad &m | nil
	defer C.cuModuleUnload(m) // call: cuModuleUnload m
	name := C.CString("k")
	C.cuModuleGetFunction(&f, m, name) // call: cuModuleGetFunction &f | m | name
	var g C.CUdeviceptr
	var bytes C.size_t
	C.cuModuleGetGlobal(&g, &bytes, m, name)               // call: cuModuleGetGlobal &g | &bytes | m | name
	C.cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, s, nil, nil) // call: cuLaunchKernel f | 1 | 1 | 1 | 32 | 1 | 1 | 0 | s | nil | nil
	C.cuStreamSynchronize(s)                               // call: cuStreamSynchronize s
	C.cuMemFree(dptr)                                      // call: cuMemFree dptr
	var ctx C.CUcontext
	C.cuCtxPushCurrent(ctx)     // call: cuCtxPushCurrent ctx
	return C.cuCtxSynchronize() // call: cuCtxSynchronize
}

// Variables of C types for the IsCType tests.
var (
	Status       C.cudaError_t
	DriverStatus C.CUresult
	DevPtr       C.CUdeviceptr
	AllocParams  C.CUDA_MEM_ALLOC_NODE_PARAMS
	Kind         C.enum_cudaMemcpyKind
)
