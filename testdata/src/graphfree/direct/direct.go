// Package direct adds free nodes itself for memory that bufs allocated.
package direct

// #cgo CFLAGS: -I${SRCDIR}/../../../include
// #include <hip/hip_runtime_api.h>
import "C"

import (
	"unsafe"

	"graphfree/bufs"
)

func freeForeignBuffer(g C.hipGraph_t) {
	b, err := bufs.NewBuffer(256)
	if err != nil {
		return
	}
	var free C.hipGraphNode_t
	C.hipGraphAddMemFreeNode(&free, g, nil, 0, b.Ptr()) // want `hipGraphAddMemFreeNode frees b.Ptr\(\), which is device memory from hipMalloc \(via NewBuffer\)`
}

// Silent: unknown provenance, an exported function's parameter.
func FreeNode(g C.hipGraph_t, dep C.hipGraphNode_t, p unsafe.Pointer) C.hipGraphNode_t { // want FreeNode:"freesParam\\[2\\]"
	var free C.hipGraphNode_t
	C.hipGraphAddMemFreeNode(&free, g, &dep, 1, p)
	return free
}

// Silent: the field of a parameter.
func FreeBuffer(g C.hipGraph_t, b *bufs.Buffer) { // want FreeBuffer:"freesParam\\[1.ptr\\]"
	var free C.hipGraphNode_t
	C.hipGraphAddMemFreeNode(&free, g, nil, 0, b.Ptr())
}
