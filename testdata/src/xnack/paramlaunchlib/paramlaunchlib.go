// Package paramlaunchlib launches kernels on memory its callers pass: its
// launchesParams facts carry the parameter flow to other packages.
package paramlaunchlib

// #cgo CFLAGS: -I${SRCDIR}/../../../include
// #include <hip/hip_runtime_api.h>
import "C"

import (
	"runtime"
	"unsafe"
)

var fn C.hipFunction_t

// Fill launches the kernel on p.
func Fill(p unsafe.Pointer) { // want Fill:"launchesParams\\(p0\\) initializesHIP"
	n := C.uint(4)
	var pin runtime.Pinner
	defer pin.Unpin()
	pin.Pin(&p)
	pin.Pin(&n)
	args := []unsafe.Pointer{unsafe.Pointer(&p), unsafe.Pointer(&n)}
	C.hipModuleLaunchKernel(fn, 1, 1, 1, 4, 1, 1, 0, nil, &args[0], nil)
	C.hipDeviceSynchronize()
}

// FillVia hands its second parameter on to Fill.
func FillVia(n int, p unsafe.Pointer) { // want FillVia:"launchesParams\\(p1\\) initializesHIP"
	if n > 0 {
		Fill(p)
	}
}

// Prefetch prefetches what it is given to device 0: managed memory needs
// XNACK to migrate (needsXNACK), and system memory to be reached at all.
func Prefetch(p unsafe.Pointer, n int) { // want Prefetch:"needsXNACK\\(managed\\) launchesParams\\(p0\\) initializesHIP"
	C.hipMemPrefetchAsync(p, C.size_t(n), 0, nil)
}

// Buffer's Ptr is exported: other packages store into it.
type Buffer struct {
	Ptr unsafe.Pointer
	N   int
}

// Launch launches the kernel on the buffer's memory.
func (b *Buffer) Launch() { // want Launch:"launchesParams\\(r.Ptr\\) initializesHIP"
	args := []unsafe.Pointer{unsafe.Pointer(&b.Ptr)}
	C.hipModuleLaunchKernel(fn, 1, 1, 1, 4, 1, 1, 0, nil, &args[0], nil)
}

// FillGuarded launches only where the GPU can reach pageable memory.
func FillGuarded(p unsafe.Pointer) { // want FillGuarded:"initializesHIP"
	var on C.int
	C.hipDeviceGetAttribute(&on, C.hipDeviceAttributePageableMemoryAccess, 0)
	if on != 1 {
		return
	}
	Fill(p)
}

// Pageable reports whether device 0 can reach pageable memory.
func Pageable() bool { // want Pageable:"reportsXNACK\\(result=0\\) initializesHIP"
	var on C.int
	C.hipDeviceGetAttribute(&on, C.hipDeviceAttributePageableMemoryAccess, 0)
	return on == 1
}
