// Package peercopy mirrors a tensor from one GPU to another and checks the
// copy on the host, the way multi-GPU data-parallel trainers replicate
// weights.
//
// It is one of hiplint's example programs: Replicate reads the destination on
// a non-blocking stream right after a device-to-device hipMemcpy (HL1001);
// on ROCm 5.6.x the copy returns before the data lands. ReplicateChecked
// synchronizes first and is the safe twin.
package peercopy

/*
#cgo CFLAGS: -I${SRCDIR}/../../testdata/include
#include <hip/hip_runtime_api.h>
*/
import "C"

import (
	"fmt"
	"unsafe"
)

func check(r C.hipError_t) error {
	if r == C.hipSuccess {
		return nil
	}
	return fmt.Errorf("hip error %d", int(r))
}

// Replica is a device buffer on one GPU with its own copy stream.
type Replica struct {
	dev    C.int
	ptr    unsafe.Pointer
	bytes  C.size_t
	stream C.hipStream_t
}

// NewReplica allocates bytes on device dev with a non-blocking stream, so that
// its transfers overlap with the compute on the null stream.
func NewReplica(dev C.int, bytes C.size_t) (*Replica, error) {
	r := &Replica{dev: dev, bytes: bytes}
	if err := check(C.hipSetDevice(dev)); err != nil {
		return nil, err
	}
	if err := check(C.hipMalloc(&r.ptr, bytes)); err != nil {
		return nil, err
	}
	if err := check(C.hipStreamCreateWithFlags(&r.stream, C.hipStreamNonBlocking)); err != nil {
		return nil, err
	}
	return r, nil
}

// Replicate copies src into dst and reads dst back to verify it. The read is
// queued on dst's non-blocking stream, which does not wait for the copy.
func Replicate(dst, src *Replica, host []byte) error {
	if err := check(C.hipSetDevice(dst.dev)); err != nil {
		return err
	}
	if err := check(C.hipMemcpy(dst.ptr, src.ptr, dst.bytes, C.hipMemcpyDeviceToDevice)); err != nil {
		return err
	}
	if err := check(C.hipMemcpyDtoHAsync(unsafe.Pointer(&host[0]), C.hipDeviceptr_t(dst.ptr), dst.bytes, dst.stream)); err != nil { // hazard: HL1001
		return err
	}
	return check(C.hipStreamSynchronize(dst.stream))
}

// ReplicateChecked waits for the copy before reading the destination.
func ReplicateChecked(dst, src *Replica, host []byte) error {
	if err := check(C.hipSetDevice(dst.dev)); err != nil {
		return err
	}
	if err := check(C.hipMemcpy(dst.ptr, src.ptr, dst.bytes, C.hipMemcpyDeviceToDevice)); err != nil {
		return err
	}
	if err := check(C.hipDeviceSynchronize()); err != nil {
		return err
	}
	if err := check(C.hipMemcpyDtoHAsync(unsafe.Pointer(&host[0]), C.hipDeviceptr_t(dst.ptr), dst.bytes, dst.stream)); err != nil {
		return err
	}
	return check(C.hipStreamSynchronize(dst.stream))
}
