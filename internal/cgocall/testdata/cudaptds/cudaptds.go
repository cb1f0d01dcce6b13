// Package cudaptds builds against the CUDA fixture headers with the
// per-thread default stream, where cudaMemcpy is a macro for cudaMemcpy_ptds
// and cudaStreamSynchronize one for cudaStreamSynchronize_ptsz. Code that
// names the suffixed entry points directly resolves to the base rows.
// Annotations as in hipcalls.
package cudaptds

/*
#cgo CFLAGS: -I${SRCDIR}/../../../../testdata/include
#define CUDA_API_PER_THREAD_DEFAULT_STREAM
#include <cuda.h>
#include <cuda_runtime_api.h>
*/
import "C"

import "unsafe"

// PerThread copies on the per-thread default stream.
func PerThread(dst, src unsafe.Pointer, n C.size_t, s C.cudaStream_t, d C.CUdeviceptr) {
	C.cudaMemcpy(dst, src, n, C.cudaMemcpyDeviceToHost)      // call: cudaMemcpy dst | src | n | C.cudaMemcpyDeviceToHost // kind: cudaMemcpyDeviceToHost=2
	C.cudaMemcpy_ptds(dst, src, n, C.cudaMemcpyHostToDevice) // call: cudaMemcpy_ptds dst | src | n | C.cudaMemcpyHostToDevice // kind: cudaMemcpyHostToDevice=1
	C.cudaStreamSynchronize(s)                               // call: cudaStreamSynchronize s
	C.cudaStreamSynchronize_ptsz(s)                          // call: cudaStreamSynchronize_ptsz s
	C.cuMemcpyDtoH(dst, d, n)                                // call: cuMemcpyDtoH dst | d | n
	C.cuMemcpyDtoH_v2_ptds(dst, d, n)                        // call: cuMemcpyDtoH_v2_ptds dst | d | n
}
