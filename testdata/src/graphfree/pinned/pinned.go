// Package pinned pins the pointer variables that kernel argument arrays hold,
// as cgo's pointer rules require: pinning must not hide the memory's origin.
package pinned

// #cgo CFLAGS: -I${SRCDIR}/../../../include
// #include <hip/hip_runtime_api.h>
import "C"

import (
	"runtime"
	"unsafe"
)

func pinnedMalloc(g C.hipGraph_t) {
	var pin runtime.Pinner
	defer pin.Unpin()
	var p unsafe.Pointer
	C.hipMalloc(&p, 64)
	pin.Pin(&p)
	var free C.hipGraphNode_t
	C.hipGraphAddMemFreeNode(&free, g, nil, 0, p) // want `HL3001|not a graph allocation`
}
