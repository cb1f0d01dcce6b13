// Package cudart checks the CUDA runtime twins.
package cudart

// #cgo CFLAGS: -I${SRCDIR}/../../../include
// #include <cuda_runtime_api.h>
import "C"

import (
	"fmt"
	"unsafe"
)

const n = 1 << 20

func alloc() unsafe.Pointer {
	var p unsafe.Pointer
	C.cudaMalloc(&p, n)
	return p
}

func hostRead() {
	dst, src := alloc(), alloc()
	C.cudaMemcpy(dst, src, n, C.cudaMemcpyDeviceToDevice)
	fmt.Println(*(*float32)(dst)) // want `this dereference reads dst on the host before the device-to-device copy into it by C.cudaMemcpy is ordered: the copy returns before the data lands; call C.cudaDeviceSynchronize\(\)`
}

func peerOnNonBlocking(host []float32) {
	dst, src := alloc(), alloc()
	var s C.cudaStream_t
	C.cudaStreamCreateWithFlags(&s, C.cudaStreamNonBlocking)
	C.cudaMemcpyPeer(dst, 1, src, 0, n)
	C.cudaMemcpyAsync(unsafe.Pointer(&host[0]), dst, n, C.cudaMemcpyDeviceToHost, s) // want `C.cudaMemcpyAsync reads dst on a non-blocking stream`
	C.cudaStreamSynchronize(s)
}

func launchAfterSetDevice(f unsafe.Pointer) { // want launchAfterSetDevice:`setsDevice\(c:1\)`
	C.cudaSetDevice(0)
	dst, src := alloc(), alloc()
	C.cudaMemcpy(dst, src, n, C.cudaMemcpyDefault)
	C.cudaSetDevice(1)
	args := []unsafe.Pointer{unsafe.Pointer(&dst)}
	C.cudaLaunchKernel(f, C.dim3{x: 1, y: 1, z: 1}, C.dim3{x: 64, y: 1, z: 1}, &args[0], 0, nil) // want `C.cudaLaunchKernel reads dst on device 1 while the copy runs on device 0`
}

func asyncOffStream() float32 {
	dst, src := alloc(), alloc()
	var s C.cudaStream_t
	C.cudaStreamCreate(&s)
	C.cudaMemcpyAsync(dst, src, n, C.cudaMemcpyDeviceToDevice, s)
	return *(*float32)(dst) // want `reads dst on the host before the device-to-device copy into it by C.cudaMemcpyAsync is ordered: synchronize the copy's stream first`
}

// Negative cases.

func synced() float32 { // want synced:`synchronizes\(device\)`
	dst, src := alloc(), alloc()
	C.cudaMemcpy(dst, src, n, C.cudaMemcpyDeviceToDevice)
	C.cudaDeviceSynchronize()
	return *(*float32)(dst)
}

func legacyStreamSync() float32 {
	dst, src := alloc(), alloc()
	C.cudaMemcpy(dst, src, n, C.cudaMemcpyDeviceToDevice)
	C.cudaStreamSynchronize(C.cudaStreamLegacy)
	return *(*float32)(dst)
}

func eventWait(f unsafe.Pointer) {
	dst, src := alloc(), alloc()
	var s C.cudaStream_t
	var ev C.cudaEvent_t
	C.cudaStreamCreateWithFlags(&s, C.cudaStreamNonBlocking)
	C.cudaEventCreate(&ev)
	C.cudaMemcpyPeer(dst, 1, src, 0, n)
	C.cudaEventRecord(ev, nil)
	C.cudaStreamWaitEvent(s, ev, 0)
	args := []unsafe.Pointer{unsafe.Pointer(&dst)}
	C.cudaLaunchKernel(f, C.dim3{x: 1, y: 1, z: 1}, C.dim3{x: 64, y: 1, z: 1}, &args[0], 0, s)
}

func blockingDtoH(host []float32) float32 { // want blockingDtoH:`synchronizes\(null\)`
	dst, src := alloc(), alloc()
	C.cudaMemcpy(dst, src, n, C.cudaMemcpyDeviceToDevice)
	C.cudaMemcpy(unsafe.Pointer(&host[0]), dst, n, C.cudaMemcpyDeviceToHost)
	return *(*float32)(dst)
}

func hostToDevice(host []float32) float32 {
	dst := alloc()
	C.cudaMemcpy(dst, unsafe.Pointer(&host[0]), n, C.cudaMemcpyHostToDevice)
	return *(*float32)(dst)
}
