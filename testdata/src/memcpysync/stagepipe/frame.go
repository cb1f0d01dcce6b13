// Package stagepipe is an image pipeline: stages run in goroutines and
// hand device frames to each other over channels. The staging stage
// copies each decoded frame into a ring slot on its own non-blocking
// stream; the filter stage launches its kernel on another.
package stagepipe

// #cgo CFLAGS: -I${SRCDIR}/../../../include
// #include <hip/hip_runtime_api.h>
import "C"

import "unsafe"

// Frame is a device image in flight between stages.
type Frame struct {
	buf   unsafe.Pointer
	bytes int
	ready C.hipEvent_t // recorded after the frame's last write, when set
}

// Stage is one step with its own stream.
type Stage struct {
	stream C.hipStream_t // want stream:`nonBlockingStream`
	kernel C.hipFunction_t
}

// NewStage creates a stage with a non-blocking stream.
func NewStage(k C.hipFunction_t) (*Stage, error) {
	s := &Stage{kernel: k}
	if r := C.hipStreamCreateWithFlags(&s.stream, C.hipStreamNonBlocking); r != C.hipSuccess {
		return nil, errStatus(r)
	}
	return s, nil
}

type statusError int

func (e statusError) Error() string { return "hip error" }

func errStatus(r C.hipError_t) error { return statusError(r) }

// run launches the stage's kernel over f on its stream.
func (s *Stage) run(f *Frame) error { // want run:`deviceReads\(p0\.buf on r\.stream; p0\.bytes on r\.stream\)`
	n := C.int(f.bytes)
	args := []unsafe.Pointer{unsafe.Pointer(&f.buf), unsafe.Pointer(&n)}
	if r := C.hipModuleLaunchKernel(s.kernel, 64, 1, 1, 256, 1, 1, 0, s.stream, &args[0], nil); r != C.hipSuccess {
		return errStatus(r)
	}
	return nil
}
