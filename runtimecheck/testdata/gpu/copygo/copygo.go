// Package copygo reads the destination of a device-to-device copy in a
// goroutine joined by a sync.WaitGroup. StaleGo starts the reader right after
// the copy, which the read's non-blocking stream does not wait for (HL1001);
// SyncedGo synchronizes the device before it starts the reader.
package copygo

/*
#include <hip/hip_runtime_api.h>
*/
import "C"

import (
	"sync"
	"unsafe"
)

// Size is large enough that the copy takes a while (about 1 ms on an H200).
const Size = 1 << 30

func buffers() (dst, src unsafe.Pointer) {
	C.hipSetDevice(0)
	C.hipMalloc(&dst, Size)
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

// readLast copies dst's last byte to the host on its own non-blocking stream.
func readLast(dst unsafe.Pointer) byte {
	var s C.hipStream_t
	C.hipStreamCreateWithFlags(&s, C.hipStreamNonBlocking)
	defer C.hipStreamDestroy(s)
	var out byte
	C.hipMemcpyDtoHAsync(unsafe.Pointer(&out), C.hipDeviceptr_t(unsafe.Add(dst, Size-1)), 1, s)
	C.hipStreamSynchronize(s)
	return out
}

// StaleGo copies src to dst and reads dst's last byte in a goroutine.
func StaleGo() byte {
	dst, src := buffers()
	defer release(dst, src)
	C.hipMemcpy(dst, src, Size, C.hipMemcpyDeviceToDevice)
	var out byte
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		out = readLast(dst)
	}()
	wg.Wait()
	return out
}

// SyncedGo is StaleGo with the device synchronized before the goroutine.
func SyncedGo() byte {
	dst, src := buffers()
	defer release(dst, src)
	C.hipMemcpy(dst, src, Size, C.hipMemcpyDeviceToDevice)
	C.hipDeviceSynchronize()
	var out byte
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		out = readLast(dst)
	}()
	wg.Wait()
	return out
}
