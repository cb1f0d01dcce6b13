// Package cudrv checks the CUDA driver twins.
package cudrv

// #cgo CFLAGS: -I${SRCDIR}/../../../include
// #include <cuda.h>
import "C"

import (
	"fmt"
	"unsafe"
)

const n = 1 << 20

func alloc() C.CUdeviceptr {
	var p C.CUdeviceptr
	C.cuMemAlloc(&p, n)
	return p
}

func hostRead() {
	dst, src := alloc(), alloc()
	C.cuMemcpyDtoD(dst, src, n)
	fmt.Println(*(*float32)(unsafe.Pointer(uintptr(dst)))) // want `this dereference reads dst on the host before the device-to-device copy into it by C.cuMemcpyDtoD is ordered: the copy returns before the data lands; call C.cuCtxSynchronize\(\)`
}

func unifiedOnNonBlocking(f C.CUfunction) {
	dst, src := alloc(), alloc()
	var s C.CUstream
	C.cuStreamCreate(&s, C.CU_STREAM_NON_BLOCKING)
	C.cuMemcpy(dst, src, n)
	args := []unsafe.Pointer{unsafe.Pointer(&dst)}
	C.cuLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, s, &args[0], nil) // want `C.cuLaunchKernel reads dst on a non-blocking stream`
}

func peerOtherContext(f C.CUfunction, ctx0, ctx1, ctx2 C.CUcontext) { // want peerOtherContext:`setsDevice\(p3\)`
	C.cuCtxSetCurrent(ctx0)
	dst, src := alloc(), alloc()
	C.cuMemcpyPeer(dst, ctx1, src, ctx0, n)
	C.cuCtxSetCurrent(ctx2)
	args := []unsafe.Pointer{unsafe.Pointer(&dst)}
	C.cuLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, nil, &args[0], nil) // want `C.cuLaunchKernel reads dst on device ctx2 while the copy runs on device ctx0`
}

func asyncHostRead() float32 {
	dst, src := alloc(), alloc()
	var s C.CUstream
	C.cuStreamCreate(&s, 0)
	C.cuMemcpyDtoDAsync(dst, src, n, s)
	return *(*float32)(unsafe.Pointer(uintptr(dst))) // want `reads dst on the host before the device-to-device copy into it by C.cuMemcpyDtoDAsync`
}

// Negative cases.

func synced() float32 { // want synced:`synchronizes\(device\)`
	dst, src := alloc(), alloc()
	C.cuMemcpyDtoD(dst, src, n)
	C.cuCtxSynchronize()
	return *(*float32)(unsafe.Pointer(uintptr(dst)))
}

func peerDestinationContext(f C.CUfunction, ctx0, ctx1 C.CUcontext) { // want peerDestinationContext:`setsDevice\(p2\)`
	C.cuCtxSetCurrent(ctx0)
	dst, src := alloc(), alloc()
	C.cuMemcpyPeer(dst, ctx1, src, ctx0, n)
	C.cuCtxSetCurrent(ctx1)
	args := []unsafe.Pointer{unsafe.Pointer(&dst)}
	C.cuLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, nil, &args[0], nil)
}

func blockingDtoH(host []float32) float32 { // want blockingDtoH:`synchronizes\(null\)`
	dst, src := alloc(), alloc()
	C.cuMemcpyDtoD(dst, src, n)
	C.cuMemcpyDtoH(unsafe.Pointer(&host[0]), dst, n)
	return *(*float32)(unsafe.Pointer(uintptr(dst)))
}

func streamSynced() float32 {
	dst, src := alloc(), alloc()
	var s C.CUstream
	C.cuStreamCreate(&s, C.CU_STREAM_NON_BLOCKING)
	C.cuMemcpyDtoDAsync(dst, src, n, s)
	C.cuStreamSynchronize(s)
	return *(*float32)(unsafe.Pointer(uintptr(dst)))
}

func fromHost(host []float32) float32 {
	dst := alloc()
	C.cuMemcpy(dst, C.CUdeviceptr(uintptr(unsafe.Pointer(&host[0]))), n)
	return *(*float32)(unsafe.Pointer(uintptr(dst)))
}
