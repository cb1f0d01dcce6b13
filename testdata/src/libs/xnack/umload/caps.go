// Package umload loads training batches into unified memory: managed
// memory, or, where the GPU can fault pages in (XNACK), the caller's Go
// slices with no copy at all. What the device can do is computed once, in a
// capability struct.
package umload

// #cgo CFLAGS: -I${SRCDIR}/../../../../include
// #include <hip/hip_runtime_api.h>
// #include <stdlib.h>
import "C"

import (
	"strings"
	"sync"
)

// Caps is what device 0 supports.
type Caps struct {
	// XNACK: the GPU retries faulting accesses (gcnArchName has xnack+).
	XNACK bool
	// Pageable: hipDeviceAttributePageableMemoryAccess is 1.
	Pageable bool
	// Managed: hipDeviceAttributeManagedMemory, which says nothing about
	// XNACK.
	Managed bool
}

var (
	capsOnce sync.Once
	caps     Caps
)

// Capabilities queries device 0 once.
func Capabilities() Caps { // want Capabilities:"initializesHIP"
	capsOnce.Do(func() {
		var prop C.hipDeviceProp_t
		if C.hipGetDeviceProperties(&prop, 0) == C.hipSuccess {
			caps.XNACK = strings.Contains(C.GoString(&prop.gcnArchName[0]), "xnack+")
		}
		var v C.int
		if C.hipDeviceGetAttribute(&v, C.hipDeviceAttributePageableMemoryAccess, 0) == C.hipSuccess {
			caps.Pageable = v == 1
		}
		if C.hipDeviceGetAttribute(&v, C.hipDeviceAttributeManagedMemory, 0) == C.hipSuccess {
			caps.Managed = v == 1
		}
	})
	return caps
}

// ZeroCopy reports whether kernels may read Go memory directly.
func ZeroCopy() bool { // want ZeroCopy:"reportsXNACK\\(result=0\\) initializesHIP"
	c := Capabilities()
	return c.XNACK || c.Pageable
}
