// Package copysync reads the destination of a device-to-device copy.
// StaleStream reads it on a non-blocking stream and StaleHost on the host
// (managed memory) before the copy is ordered (HL1001); SyncedStream and
// SyncedHost synchronize first.
package copysync

/*
#include <hip/hip_runtime_api.h>
*/
import "C"

import "unsafe"

// Size is large enough that the copy takes a while (about 1 ms on an H200).
const Size = 1 << 30

func buffers(managed bool) (dst, src unsafe.Pointer) {
	C.hipSetDevice(0)
	if managed {
		C.hipMallocManaged(&dst, Size, C.hipMemAttachGlobal)
	} else {
		C.hipMalloc(&dst, Size)
	}
	C.hipMalloc(&src, Size)
	C.hipMemset(dst, 0, Size)
	C.hipMemset(src, 1, Size)
	C.hipDeviceSynchronize()
	return dst, src
}

func release(dst, src unsafe.Pointer) {
	C.hipDeviceSynchronize()
	C.hipFree(dst)
	C.hipFree(src)
}

// StaleStream copies src to dst and reads dst's last byte back on a
// non-blocking stream, which does not wait for the null stream's copy.
func StaleStream() byte {
	dst, src := buffers(false)
	defer release(dst, src)
	var s C.hipStream_t
	C.hipStreamCreateWithFlags(&s, C.hipStreamNonBlocking)
	defer C.hipStreamDestroy(s)
	C.hipMemcpy(dst, src, Size, C.hipMemcpyDeviceToDevice)
	var out byte
	C.hipMemcpyDtoHAsync(unsafe.Pointer(&out), C.hipDeviceptr_t(unsafe.Add(dst, Size-1)), 1, s)
	C.hipStreamSynchronize(s)
	return out
}

// SyncedStream is StaleStream with the device synchronized before the read.
func SyncedStream() byte {
	dst, src := buffers(false)
	defer release(dst, src)
	var s C.hipStream_t
	C.hipStreamCreateWithFlags(&s, C.hipStreamNonBlocking)
	defer C.hipStreamDestroy(s)
	C.hipMemcpy(dst, src, Size, C.hipMemcpyDeviceToDevice)
	C.hipDeviceSynchronize()
	var out byte
	C.hipMemcpyDtoHAsync(unsafe.Pointer(&out), C.hipDeviceptr_t(unsafe.Add(dst, Size-1)), 1, s)
	C.hipStreamSynchronize(s)
	return out
}

// StaleHost copies into managed memory and reads it on the host at once.
func StaleHost() byte {
	dst, src := buffers(true)
	defer release(dst, src)
	C.hipMemcpy(dst, src, Size, C.hipMemcpyDeviceToDevice)
	return *(*byte)(unsafe.Add(dst, Size-1))
}

// SyncedHost synchronizes before the host read.
func SyncedHost() byte {
	dst, src := buffers(true)
	defer release(dst, src)
	C.hipMemcpy(dst, src, Size, C.hipMemcpyDeviceToDevice)
	C.hipDeviceSynchronize()
	return *(*byte)(unsafe.Add(dst, Size-1))
}
