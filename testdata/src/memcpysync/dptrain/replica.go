// Package dptrain is a data-parallel trainer: one replica per GPU, each
// with its own non-blocking stream, gradients gathered onto the root
// device with peer copies issued from goroutines joined by an
// errgroup-style helper, and weights broadcast back the same way.
package dptrain

// #cgo CFLAGS: -I${SRCDIR}/../../../include
// #include <hip/hip_runtime_api.h>
import "C"

import (
	"fmt"
	"unsafe"
)

func check(r C.hipError_t) error {
	if r != C.hipSuccess {
		return fmt.Errorf("hip error %d", int(r))
	}
	return nil
}

// Replica is the model's copy on one device.
type Replica struct {
	dev     int
	stream  C.hipStream_t // want stream:`nonBlockingStream`
	weights unsafe.Pointer
	grads   unsafe.Pointer
	n       int
	fwd     C.hipFunction_t
}

// NewReplica allocates a replica on device dev.
func NewReplica(dev, n int, fwd C.hipFunction_t) (*Replica, error) { // want NewReplica:`setsDevice\(p0\)`
	r := &Replica{dev: dev, n: n, fwd: fwd}
	if err := check(C.hipSetDevice(C.int(dev))); err != nil {
		return nil, err
	}
	if err := check(C.hipStreamCreateWithFlags(&r.stream, C.hipStreamNonBlocking)); err != nil {
		return nil, err
	}
	if err := check(C.hipMalloc(&r.weights, C.size_t(4*n))); err != nil {
		return nil, err
	}
	if err := check(C.hipMalloc(&r.grads, C.size_t(4*n))); err != nil {
		return nil, err
	}
	return r, nil
}

// launch runs fn over p on stream s of the replica's device.
func (r *Replica) launch(fn C.hipFunction_t, s C.hipStream_t, p unsafe.Pointer) error { // want launch:`deviceReads\(p2 on p1; r\.n on p1\)`
	n := C.int(r.n)
	args := []unsafe.Pointer{unsafe.Pointer(&p), unsafe.Pointer(&n)}
	return check(C.hipModuleLaunchKernel(fn, C.uint((r.n+255)/256), 1, 1, 256, 1, 1, 0, s, &args[0], nil))
}

// Forward runs the forward kernel over the replica's weights on its stream.
func (r *Replica) Forward() error { // want Forward:`deviceReads\(r\.n on r\.stream; r\.weights on r\.stream\) setsDevice\(r\.dev\)`
	if err := check(C.hipSetDevice(C.int(r.dev))); err != nil {
		return err
	}
	return r.launch(r.fwd, r.stream, r.weights)
}

// ForwardNull runs it on the device's null stream.
func (r *Replica) ForwardNull() error { // want ForwardNull:`setsDevice\(r\.dev\)`
	if err := check(C.hipSetDevice(C.int(r.dev))); err != nil {
		return err
	}
	return r.launch(r.fwd, nil, r.weights)
}
