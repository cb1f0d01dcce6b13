// Package capture frees memory by stream capture: hipFreeAsync between
// hipStreamBeginCapture and hipStreamEndCapture records a graph free node,
// which must free an allocation of the graph itself. FreeCaptured frees
// hipMalloc memory allocated before the capture (HL3001); FreeGraphAlloc
// frees what hipMallocAsync allocated in the same capture.
package capture

/*
#include <hip/hip_runtime_api.h>
*/
import "C"

import (
	"fmt"
	"unsafe"
)

// Size is the allocation each function frees by capture.
const Size = 1 << 20

func status(op string, r C.hipError_t) error {
	if r != C.hipSuccess {
		return fmt.Errorf("%s: error %d", op, int(r))
	}
	return nil
}

// replay ends the capture of s, then instantiates and runs the graph it made.
func replay(s C.hipStream_t) error {
	var g C.hipGraph_t
	if err := status("hipStreamEndCapture", C.hipStreamEndCapture(s, &g)); err != nil {
		return err
	}
	defer C.hipGraphDestroy(g)
	var x C.hipGraphExec_t
	if err := status("hipGraphInstantiate", C.hipGraphInstantiate(&x, g, nil, nil, 0)); err != nil {
		return err
	}
	defer C.hipGraphExecDestroy(x)
	if err := status("hipGraphLaunch", C.hipGraphLaunch(x, s)); err != nil {
		return err
	}
	return status("hipStreamSynchronize", C.hipStreamSynchronize(s))
}

// FreeCaptured allocates p, then frees it inside a capture of s.
func FreeCaptured() error {
	C.hipSetDevice(0)
	var s C.hipStream_t
	C.hipStreamCreateWithFlags(&s, C.hipStreamNonBlocking)
	defer C.hipStreamDestroy(s)
	var p unsafe.Pointer
	if err := status("hipMalloc", C.hipMalloc(&p, Size)); err != nil {
		return err
	}
	if err := status("hipStreamBeginCapture", C.hipStreamBeginCapture(s, C.hipStreamCaptureModeGlobal)); err != nil {
		return err
	}
	freed := status("hipFreeAsync", C.hipFreeAsync(p, s))
	if err := replay(s); err != nil || freed != nil {
		return fmt.Errorf("%v; %v", freed, err)
	}
	return nil
}

// FreeGraphAlloc allocates and frees inside the same capture of s.
func FreeGraphAlloc() error {
	C.hipSetDevice(0)
	var s C.hipStream_t
	C.hipStreamCreateWithFlags(&s, C.hipStreamNonBlocking)
	defer C.hipStreamDestroy(s)
	if err := status("hipStreamBeginCapture", C.hipStreamBeginCapture(s, C.hipStreamCaptureModeGlobal)); err != nil {
		return err
	}
	var p unsafe.Pointer
	allocated := status("hipMallocAsync", C.hipMallocAsync(&p, Size, s))
	freed := status("hipFreeAsync", C.hipFreeAsync(p, s))
	if err := replay(s); err != nil || allocated != nil || freed != nil {
		return fmt.Errorf("%v; %v; %v", allocated, freed, err)
	}
	return nil
}
