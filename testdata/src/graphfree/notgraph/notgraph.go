// Package notgraph frees memory that is not a graph allocation with graph
// free nodes (HL3001), the way real code gets there.
package notgraph

// #cgo CFLAGS: -I${SRCDIR}/../../../include
// #include <hip/hip_runtime_api.h>
// #include <stdlib.h>
import "C"

import (
	"errors"
	"unsafe"
)

func check(r C.hipError_t) error {
	if r != C.hipSuccess {
		return errors.New("hip error")
	}
	return nil
}

// The mission's case: a hipMalloc buffer freed inside the graph.
func deviceMemory(g C.hipGraph_t, n C.size_t) error {
	var p unsafe.Pointer
	if err := check(C.hipMalloc(&p, n)); err != nil {
		return err
	}
	var free C.hipGraphNode_t
	return check(C.hipGraphAddMemFreeNode(&free, g, nil, 0, p)) // want `hipGraphAddMemFreeNode frees p, which is device memory from hipMalloc, not a graph allocation: .* hipErrorInvalidValue .*; free it with hipFree after the graph has run`
}

func managedMemory(g C.hipGraph_t, n C.size_t) {
	var p unsafe.Pointer
	C.hipMallocManaged(&p, n, C.hipMemAttachGlobal)
	var free C.hipGraphNode_t
	C.hipGraphAddMemFreeNode(&free, g, nil, 0, p) // want `frees p, which is managed memory from hipMallocManaged`
}

func pinnedHost(g C.hipGraph_t, n C.size_t) {
	var p unsafe.Pointer
	C.hipHostMalloc(&p, n, 0)
	var free C.hipGraphNode_t
	C.hipGraphAddMemFreeNode(&free, g, nil, 0, p) // want `frees p, which is pinned host memory from hipHostMalloc, .*free it with hipHostFree`
}

// Through hipDeviceptr_t and uintptr conversions.
func extMalloc(g C.hipGraph_t, n C.size_t) {
	var d C.hipDeviceptr_t
	C.hipExtMallocWithFlags((*unsafe.Pointer)(unsafe.Pointer(&d)), n, 0)
	addr := uintptr(d)
	var free C.hipGraphNode_t
	C.hipGraphAddMemFreeNode(&free, g, nil, 0, unsafe.Pointer(addr)) // want `frees unsafe.Pointer\(addr\), which is device memory from hipExtMallocWithFlags`
}

func pitched(g C.hipGraph_t, w, h C.size_t) {
	var p unsafe.Pointer
	var pitch C.size_t
	C.hipMallocPitch(&p, &pitch, w, h)
	var free C.hipGraphNode_t
	C.hipGraphAddMemFreeNode(&free, g, nil, 0, p) // want `device memory from hipMallocPitch`
}

func cHeap(g C.hipGraph_t, n C.size_t) {
	p := C.malloc(n)
	var free C.hipGraphNode_t
	C.hipGraphAddMemFreeNode(&free, g, nil, 0, p) // want `frees p, which is C heap memory from C.malloc.*free it with C.free`
}

// Passing the address of the Go variable instead of the pointer it holds.
func addressOfVariable(g C.hipGraph_t) {
	var params C.hipMemAllocNodeParams
	params.bytesize = 1 << 20
	var alloc, free C.hipGraphNode_t
	C.hipGraphAddMemAllocNode(&alloc, g, nil, 0, &params)
	p := params.dptr
	C.hipGraphAddMemFreeNode(&free, g, &alloc, 1, unsafe.Pointer(&p)) // want `frees unsafe.Pointer\(&p\), which is Go memory from the address of the Go variable p`
}

func goSlice(g C.hipGraph_t) {
	buf := make([]byte, 4096)
	var free C.hipGraphNode_t
	C.hipGraphAddMemFreeNode(&free, g, nil, 0, unsafe.Pointer(&buf[0])) // want `which is Go memory from Go memory from make`
}

// A buffer type with the pointer in a field, in a slice and in a map.
type buffer struct {
	ptr  unsafe.Pointer
	size C.size_t
}

func newBuffer(n C.size_t) (*buffer, error) { // want newBuffer:"returnsMemory\\[0.ptr=device:hipMalloc\\]"
	b := &buffer{size: n}
	if err := check(C.hipMalloc(&b.ptr, n)); err != nil {
		return nil, err
	}
	return b, nil
}

func structField(g C.hipGraph_t) error {
	b, err := newBuffer(1 << 20)
	if err != nil {
		return err
	}
	var free C.hipGraphNode_t
	return check(C.hipGraphAddMemFreeNode(&free, g, nil, 0, b.ptr)) // want `frees b.ptr, which is device memory from hipMalloc \(via newBuffer\)`
}

func sliceOfBuffers(g C.hipGraph_t, n int) {
	bufs := make([]unsafe.Pointer, n)
	for i := range bufs {
		C.hipMalloc(&bufs[i], 1<<20)
	}
	for _, p := range bufs {
		var free C.hipGraphNode_t
		C.hipGraphAddMemFreeNode(&free, g, nil, 0, p) // want `frees p, which is device memory from hipMalloc`
	}
}

func mapOfBuffers(g C.hipGraph_t, names []string) {
	bufs := map[string]*buffer{}
	for _, name := range names {
		b := &buffer{}
		C.hipMalloc(&b.ptr, 1<<20)
		bufs[name] = b
	}
	for _, b := range bufs {
		var free C.hipGraphNode_t
		C.hipGraphAddMemFreeNode(&free, g, nil, 0, b.ptr) // want `frees b.ptr, which is device memory from hipMalloc`
	}
}

// The free-node wrapper is summarized; the wrong free is reported at its caller.
func addFree(g C.hipGraph_t, dep C.hipGraphNode_t, p unsafe.Pointer) error { // want addFree:"freesParam\\[2\\]"
	var free C.hipGraphNode_t
	return check(C.hipGraphAddMemFreeNode(&free, g, &dep, 1, p))
}

func throughWrapper(g C.hipGraph_t, dep C.hipGraphNode_t) error {
	var p unsafe.Pointer
	if err := check(C.hipMalloc(&p, 64)); err != nil {
		return err
	}
	return addFree(g, dep, p) // want `addFree frees p, which is device memory from hipMalloc`
}

// One path allocates with hipMalloc: reported.
func onePath(g C.hipGraph_t, pooled bool) {
	var params C.hipMemAllocNodeParams
	params.bytesize = 64
	var alloc, free C.hipGraphNode_t
	var p unsafe.Pointer
	if pooled {
		C.hipGraphAddMemAllocNode(&alloc, g, nil, 0, &params)
		p = params.dptr
	} else {
		C.hipMalloc(&p, 64)
	}
	C.hipGraphAddMemFreeNode(&free, g, nil, 0, p) // want `frees p, which is device memory from hipMalloc`
}
