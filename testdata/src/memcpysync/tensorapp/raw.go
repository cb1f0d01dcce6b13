package tensorapp

// #cgo CFLAGS: -I${SRCDIR}/../../../include
// #include <hip/hip_runtime_api.h>
import "C"

import "unsafe"

// scatter copies src into each of n device buffers it allocates, appending
// each buffer before the copy into it, and reads the first on the host
// before the copies landed.
func scatter(src C.hipDeviceptr_t, n, size int) []C.hipDeviceptr_t { // want scatter:`readsParams\[1\]`
	var dsts []C.hipDeviceptr_t
	for range n {
		var d C.hipDeviceptr_t
		if C.hipMalloc((*unsafe.Pointer)(unsafe.Pointer(&d)), C.size_t(size)) != C.hipSuccess {
			return dsts
		}
		dsts = append(dsts, d)
		C.hipMemcpyDtoD(d, src, C.size_t(size))
	}
	head := unsafe.Slice((*float32)(unsafe.Pointer(dsts[0])), size/4)
	_ = head[0] // want `this index expression reads head on the host before the device-to-device copy into it by C\.hipMemcpyDtoD is ordered`
	return dsts
}

// scatterSynced synchronizes after the loop.
func scatterSynced(src C.hipDeviceptr_t, n, size int) []C.hipDeviceptr_t { // want scatterSynced:`readsParams\[1\]`
	var dsts []C.hipDeviceptr_t
	for range n {
		var d C.hipDeviceptr_t
		if C.hipMalloc((*unsafe.Pointer)(unsafe.Pointer(&d)), C.size_t(size)) != C.hipSuccess {
			return dsts
		}
		dsts = append(dsts, d)
		C.hipMemcpyDtoD(d, src, C.size_t(size))
	}
	C.hipDeviceSynchronize()
	head := unsafe.Slice((*float32)(unsafe.Pointer(dsts[0])), size/4)
	_ = head[0]
	return dsts
}
