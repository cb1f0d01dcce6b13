// Package strict is checked with -memcpysync.strict: reads ordered only by
// implicit default-stream semantics are reported too.
package strict

// #cgo CFLAGS: -I${SRCDIR}/../../../include
// #include <hip/hip_runtime_api.h>
import "C"

import "unsafe"

const n = 1 << 20

func alloc() unsafe.Pointer {
	var p unsafe.Pointer
	C.hipMalloc(&p, n)
	return p
}

func blockingStream(f C.hipFunction_t) {
	dst, src := alloc(), alloc()
	var s C.hipStream_t
	C.hipStreamCreate(&s)
	C.hipMemcpy(dst, src, n, C.hipMemcpyDeviceToDevice)
	args := []unsafe.Pointer{unsafe.Pointer(&dst)}
	C.hipModuleLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, s, &args[0], nil) // want `C.hipModuleLaunchKernel reads dst on a stream that is not ordered after the copy`
}

func peerDestination(f C.hipFunction_t) { // want peerDestination:`setsDevice\(c:1\)`
	C.hipSetDevice(0)
	dst, src := alloc(), alloc()
	C.hipMemcpyPeer(dst, 1, src, 0, n)
	C.hipSetDevice(1)
	args := []unsafe.Pointer{unsafe.Pointer(&dst)}
	C.hipModuleLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, nil, &args[0], nil) // want `C.hipModuleLaunchKernel reads dst on device 1 while the copy runs on device 0`
}

// Same stream and explicit synchronization stay silent.

func sameNullStream(f C.hipFunction_t) {
	dst, src := alloc(), alloc()
	C.hipMemcpy(dst, src, n, C.hipMemcpyDeviceToDevice)
	args := []unsafe.Pointer{unsafe.Pointer(&dst)}
	C.hipModuleLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, nil, &args[0], nil)
}

func eventWait(f C.hipFunction_t) {
	dst, src := alloc(), alloc()
	var s C.hipStream_t
	var ev C.hipEvent_t
	C.hipStreamCreate(&s)
	C.hipEventCreate(&ev)
	C.hipMemcpy(dst, src, n, C.hipMemcpyDeviceToDevice)
	C.hipEventRecord(ev, nil)
	C.hipStreamWaitEvent(s, ev, 0)
	args := []unsafe.Pointer{unsafe.Pointer(&dst)}
	C.hipModuleLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, s, &args[0], nil)
}
