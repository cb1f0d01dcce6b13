package graphfree

// #include <hip/hip_runtime_api.h>
import "C"

import "unsafe"

//matrix:hazard rt-capture-free
func captureFreeOutside(s C.hipStream_t) {
	var p unsafe.Pointer
	C.hipMalloc(&p, n)
	C.hipStreamBeginCapture(s, C.hipStreamCaptureModeGlobal)
	C.hipFreeAsync(p, s) // want `hipFreeAsync during stream capture \(a free node\) frees p, which is device memory from hipMalloc, not a graph allocation`
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

// Memory allocated before the capture and freed after it ends is freed on
// the stream, not by the graph.
//
//matrix:twin rt-capture-free
func captureThenFree(s C.hipStream_t) {
	var p unsafe.Pointer
	C.hipMallocAsync(&p, n, s)
	C.hipStreamBeginCapture(s, C.hipStreamCaptureModeGlobal)
	C.hipMemsetAsync(p, 0, n, s)
	var g C.hipGraph_t
	C.hipStreamEndCapture(s, &g)
	C.hipFreeAsync(p, s)
}
