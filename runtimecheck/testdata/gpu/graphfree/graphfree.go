// Package graphfree adds graph memory-free nodes. PlainFree frees hipMalloc
// memory with one (HL3001); GraphFree frees an allocation node's address.
package graphfree

/*
#include <hip/hip_runtime_api.h>
*/
import "C"

import (
	"fmt"
	"unsafe"
)

// PlainFree adds a free node for device memory that is not a graph allocation.
func PlainFree() error {
	C.hipSetDevice(0)
	var p unsafe.Pointer
	C.hipMalloc(&p, 1<<20)
	defer C.hipFree(p)
	var g C.hipGraph_t
	C.hipGraphCreate(&g, 0)
	defer C.hipGraphDestroy(g)
	var node C.hipGraphNode_t
	if r := C.hipGraphAddMemFreeNode(&node, g, nil, 0, p); r != C.hipSuccess {
		return fmt.Errorf("hipGraphAddMemFreeNode: error %d", int(r))
	}
	return nil
}

// GraphFree frees the address a graph allocation node returned.
func GraphFree() error {
	C.hipSetDevice(0)
	var g C.hipGraph_t
	C.hipGraphCreate(&g, 0)
	defer C.hipGraphDestroy(g)
	var params C.hipMemAllocNodeParams
	params.poolProps.allocType = C.hipMemAllocationTypePinned
	params.poolProps.location._type = C.hipMemLocationTypeDevice
	params.poolProps.location.id = 0
	params.bytesize = 1 << 20
	var alloc, free C.hipGraphNode_t
	if r := C.hipGraphAddMemAllocNode(&alloc, g, nil, 0, &params); r != C.hipSuccess {
		return fmt.Errorf("hipGraphAddMemAllocNode: error %d", int(r))
	}
	if r := C.hipGraphAddMemFreeNode(&free, g, &alloc, 1, params.dptr); r != C.hipSuccess {
		return fmt.Errorf("hipGraphAddMemFreeNode: error %d", int(r))
	}
	return nil
}
