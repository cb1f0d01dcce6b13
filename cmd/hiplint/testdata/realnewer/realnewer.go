// Package realnewer builds graphs with the graph memory-node API of HIP 6
// (hipMemAllocNodeParams, hipGraphAddMemAllocNode, hipGraphAddMemFreeNode)
// against whatever HIP header the machine has. Debian's real HIP 5.2.3
// header predates that API: hiplint analyzes the package with its own
// declarations instead, and says so (internal/synth). Synthesizing the
// names from their use could not declare params.poolProps.location._type.
package realnewer

// #cgo CFLAGS: -D__HIP_PLATFORM_AMD__
// #include <hip/hip_runtime_api.h>
import "C"

// FreeTwice frees a graph allocation with two free nodes.
func FreeTwice(g C.hipGraph_t) {
	var params C.hipMemAllocNodeParams
	params.poolProps.allocType = C.hipMemAllocationTypePinned
	params.poolProps.location._type = C.hipMemLocationTypeDevice
	params.bytesize = 64
	var alloc, free1, free2 C.hipGraphNode_t
	C.hipGraphAddMemAllocNode(&alloc, g, nil, 0, &params)
	p := params.dptr
	C.hipGraphAddMemFreeNode(&free1, g, &alloc, 1, p)
	C.hipGraphAddMemFreeNode(&free2, g, &free1, 1, p) // hazard: HL3004
}

// FreeOnce is the safe twin.
func FreeOnce(g C.hipGraph_t) {
	var params C.hipMemAllocNodeParams
	params.poolProps.allocType = C.hipMemAllocationTypePinned
	params.poolProps.location._type = C.hipMemLocationTypeDevice
	params.bytesize = 64
	var alloc, free C.hipGraphNode_t
	C.hipGraphAddMemAllocNode(&alloc, g, nil, 0, &params)
	C.hipGraphAddMemFreeNode(&free, g, &alloc, 1, params.dptr)
}
