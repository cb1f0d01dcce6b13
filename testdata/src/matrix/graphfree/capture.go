package graphfree

// #include <hip/hip_runtime_api.h>
import "C"

import "unsafe"

//matrix:gap rt-capture-free: a hipFreeAsync of memory allocated before the capture, recorded as a free node by the capture, is not reported
func captureFreeOutside(s C.hipStream_t) {
	var p unsafe.Pointer
	C.hipMalloc(&p, n)
	C.hipStreamBeginCapture(s, C.hipStreamCaptureModeGlobal)
	C.hipFreeAsync(p, s)
	var g C.hipGraph_t
	C.hipStreamEndCapture(s, &g)
}

//matrix:twin rt-capture-free
func captureFreeInside(s C.hipStream_t) {
	C.hipStreamBeginCapture(s, C.hipStreamCaptureModeGlobal)
	var p unsafe.Pointer
	C.hipMallocAsync(&p, n, s)
	C.hipFreeAsync(p, s)
	var g C.hipGraph_t
	C.hipStreamEndCapture(s, &g)
}
