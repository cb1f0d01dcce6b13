// Package realgraph builds graphs against Debian's real HIP header, with
// hiplint's declarations of the graph memory-node API it lacks.
package realgraph

// #cgo CFLAGS: -D__HIP_PLATFORM_AMD__ -I${SRCDIR}/../../../../testdata/include-extra
// #include <hip/hip_runtime_api.h>
// #include <hip_graph_mem.h>
import "C"

import "unsafe"

func FreeMalloced(g C.hipGraph_t) {
	var p unsafe.Pointer
	C.hipMalloc(&p, 1<<20)
	var free C.hipGraphNode_t
	C.hipGraphAddMemFreeNode(&free, g, nil, 0, p) // hazard: HL3001
}

func FreeAsyncOutsideCapture(g C.hipGraph_t, s C.hipStream_t) {
	var p unsafe.Pointer
	C.hipMallocAsync(&p, 1<<20, s)
	var free C.hipGraphNode_t
	C.hipGraphAddMemFreeNode(&free, g, nil, 0, p) // hazard: HL3002
}

func FreeAllocNode(g C.hipGraph_t) {
	var params C.hipMemAllocNodeParams
	params.poolProps.allocType = C.hipMemAllocationTypePinned
	params.poolProps.location._type = C.hipMemLocationTypeDevice
	params.bytesize = 1 << 20
	var alloc, free C.hipGraphNode_t
	C.hipGraphAddMemAllocNode(&alloc, g, nil, 0, &params)
	C.hipGraphAddMemFreeNode(&free, g, &alloc, 1, params.dptr)
}
