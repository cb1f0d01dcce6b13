// Package async holds stream-ordered allocations and stream capture: outside
// capture a free node may not free them (HL3002), inside capture they are
// graph allocations.
package async

// #cgo CFLAGS: -I${SRCDIR}/../../../include
// #include <hip/hip_runtime_api.h>
import "C"

import (
	"errors"
	"unsafe"
)

func check(r C.hipError_t) error {
	if r != C.hipSuccess {
		return errors.New("hip error")
	}
	return nil
}

// Accepted by HIP 5.6, rejected by CUDA and current HIP.
func outsideCapture(g C.hipGraph_t, s C.hipStream_t) error {
	var p unsafe.Pointer
	if err := check(C.hipMallocAsync(&p, 1<<20, s)); err != nil {
		return err
	}
	var free C.hipGraphNode_t
	return check(C.hipGraphAddMemFreeNode(&free, g, nil, 0, p)) // want `hipGraphAddMemFreeNode frees p, which hipMallocAsync allocated outside stream capture: HIP 5.6 accepted this, but CUDA and current HIP reject it with hipErrorInvalidValue; free it with hipFreeAsync on a stream, or allocate it with hipGraphAddMemAllocNode`
}

func fromPool(g C.hipGraph_t, pool C.hipMemPool_t, s C.hipStream_t) {
	var p unsafe.Pointer
	C.hipMallocFromPoolAsync(&p, 64, pool, s)
	var free C.hipGraphNode_t
	C.hipGraphAddMemFreeNode(&free, g, nil, 0, p) // want `which hipMallocFromPoolAsync allocated outside stream capture`
}

// Capture ended before the allocation: no longer a graph allocation.
func afterCapture(s C.hipStream_t) {
	var g C.hipGraph_t
	C.hipStreamBeginCapture(s, C.hipStreamCaptureModeGlobal)
	C.hipStreamEndCapture(s, &g)
	var p unsafe.Pointer
	C.hipMallocAsync(&p, 64, s)
	var free C.hipGraphNode_t
	C.hipGraphAddMemFreeNode(&free, g, nil, 0, p) // want `which hipMallocAsync allocated outside stream capture`
}

// Capturing another stream does not make this one's allocation a graph allocation.
func otherStream(s, t C.hipStream_t) {
	var g C.hipGraph_t
	C.hipStreamBeginCapture(s, C.hipStreamCaptureModeGlobal)
	var p unsafe.Pointer
	C.hipMallocAsync(&p, 64, t)
	C.hipStreamEndCapture(s, &g)
	var free C.hipGraphNode_t
	C.hipGraphAddMemFreeNode(&free, g, nil, 0, p) // want `which hipMallocAsync allocated outside stream capture`
}

// Silent: allocated under capture, freed by a free node added to the captured graph.
func capturedFreedByNode(s C.hipStream_t) error {
	var g C.hipGraph_t
	if err := check(C.hipStreamBeginCapture(s, C.hipStreamCaptureModeGlobal)); err != nil {
		return err
	}
	var p unsafe.Pointer
	if err := check(C.hipMallocAsync(&p, 1<<20, s)); err != nil {
		return err
	}
	C.hipMemsetAsync(p, 0, 1<<20, s)
	if err := check(C.hipStreamEndCapture(s, &g)); err != nil {
		return err
	}
	var free C.hipGraphNode_t
	return check(C.hipGraphAddMemFreeNode(&free, g, nil, 0, p))
}

// Silent: allocated and freed within the capture.
func capturedFreedAsync(s C.hipStream_t) (C.hipGraph_t, error) {
	var g C.hipGraph_t
	C.hipStreamBeginCapture(s, C.hipStreamCaptureModeGlobal)
	var p unsafe.Pointer
	C.hipMallocAsync(&p, 1<<20, s)
	C.hipMemsetAsync(p, 0, 1<<20, s)
	C.hipFreeAsync(p, s)
	err := check(C.hipStreamEndCapture(s, &g))
	return g, err
}

// Silent: capture on some paths only; the analysis does not guess.
func conditionalCapture(g C.hipGraph_t, s C.hipStream_t, useGraph bool) {
	if useGraph {
		C.hipStreamBeginCapture(s, C.hipStreamCaptureModeGlobal)
	}
	var p unsafe.Pointer
	C.hipMallocAsync(&p, 64, s)
	if useGraph {
		C.hipStreamEndCapture(s, &g)
		var free C.hipGraphNode_t
		C.hipGraphAddMemFreeNode(&free, g, nil, 0, p)
	}
}

// Silent: the stream is a field, captured through the same expression.
type recorder struct {
	stream C.hipStream_t
	graph  C.hipGraph_t
}

func (r *recorder) record(n C.size_t) {
	C.hipStreamBeginCapture(r.stream, C.hipStreamCaptureModeGlobal)
	var p unsafe.Pointer
	C.hipMallocAsync(&p, n, r.stream)
	C.hipStreamEndCapture(r.stream, &r.graph)
	var free C.hipGraphNode_t
	C.hipGraphAddMemFreeNode(&free, r.graph, nil, 0, p)
}

// A helper that allocates on a stream; called under capture its memory is a
// graph allocation, outside capture it is not.
func scratch(s C.hipStream_t) unsafe.Pointer { // want scratch:"returnsMemory\\[0=stream-ordered:hipMallocAsync\\]"
	var p unsafe.Pointer
	C.hipMallocAsync(&p, 256, s)
	return p
}

func helperOutsideCapture(g C.hipGraph_t, s C.hipStream_t) {
	p := scratch(s)
	var free C.hipGraphNode_t
	C.hipGraphAddMemFreeNode(&free, g, nil, 0, p) // want `which hipMallocAsync \(via scratch\) allocated outside stream capture`
}

// Silent: the helper runs under capture.
func helperUnderCapture(s C.hipStream_t) {
	var g C.hipGraph_t
	C.hipStreamBeginCapture(s, C.hipStreamCaptureModeGlobal)
	p := scratch(s)
	C.hipStreamEndCapture(s, &g)
	var free C.hipGraphNode_t
	C.hipGraphAddMemFreeNode(&free, g, nil, 0, p)
}
