// Package pipe copies 1 GiB on one non-blocking stream and reads the last
// byte of the destination back on another. Unordered reads with no wait
// (HL1002); Ordered makes the reading stream wait for an event recorded on
// the copy's stream after the copy (hipEventRecord + hipStreamWaitEvent), so
// its read is ordered although it is issued while the copy is in flight.
package pipe

/*
#include <hip/hip_runtime_api.h>
*/
import "C"

import "unsafe"

// Size is large enough that the copy takes a while.
const Size = 1 << 30

// Fill is the byte the source holds.
const Fill = 7

type pair struct {
	dst, src     unsafe.Pointer
	copyS, readS C.hipStream_t
}

func open() *pair {
	p := &pair{}
	C.hipSetDevice(0)
	C.hipMalloc(&p.dst, Size)
	C.hipMalloc(&p.src, Size)
	C.hipMemset(p.dst, 0, Size)
	C.hipMemset(p.src, Fill, Size)
	C.hipDeviceSynchronize()
	C.hipStreamCreateWithFlags(&p.copyS, C.hipStreamNonBlocking)
	C.hipStreamCreateWithFlags(&p.readS, C.hipStreamNonBlocking)
	return p
}

func (p *pair) close() {
	C.hipDeviceSynchronize()
	C.hipStreamDestroy(p.copyS)
	C.hipStreamDestroy(p.readS)
	C.hipFree(p.dst)
	C.hipFree(p.src)
}

// Unordered reads the tail of dst on readS right after the copy on copyS.
func Unordered() byte {
	p := open()
	defer p.close()
	C.hipMemcpyAsync(p.dst, p.src, Size, C.hipMemcpyDeviceToDevice, p.copyS)
	var out byte
	C.hipMemcpyDtoHAsync(unsafe.Pointer(&out), C.hipDeviceptr_t(unsafe.Add(p.dst, Size-1)), 1, p.readS)
	C.hipStreamSynchronize(p.readS)
	return out
}

// Ordered records an event after the copy and makes readS wait for it.
func Ordered() byte {
	p := open()
	defer p.close()
	var ev C.hipEvent_t
	C.hipEventCreateWithFlags(&ev, C.hipEventDisableTiming)
	defer C.hipEventDestroy(ev)
	C.hipMemcpyAsync(p.dst, p.src, Size, C.hipMemcpyDeviceToDevice, p.copyS)
	C.hipEventRecord(ev, p.copyS)
	C.hipStreamWaitEvent(p.readS, ev, 0)
	var out byte
	C.hipMemcpyDtoHAsync(unsafe.Pointer(&out), C.hipDeviceptr_t(unsafe.Add(p.dst, Size-1)), 1, p.readS)
	C.hipStreamSynchronize(p.readS)
	return out
}
