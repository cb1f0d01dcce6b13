// Package safe holds the correct patterns and look-alikes that must stay silent.
package safe

// #cgo CFLAGS: -I${SRCDIR}/../../../include
// #include <hip/hip_runtime_api.h>
// static void* poolBuffer(void) { return 0; }
// static void initBuffer(void** p) { *p = 0; }
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

// A whole graph: upload, kernel, download, free after the download.
func wholeGraph(fn unsafe.Pointer, host unsafe.Pointer, n C.int, s C.hipStream_t) error {
	var g C.hipGraph_t
	if err := check(C.hipGraphCreate(&g, 0)); err != nil {
		return err
	}
	defer C.hipGraphDestroy(g)
	size := C.size_t(n) * 4
	params := &C.hipMemAllocNodeParams{bytesize: size}
	params.poolProps.allocType = C.hipMemAllocationTypePinned
	params.poolProps.location._type = C.hipMemLocationTypeDevice
	var alloc, up, kernel, down, free C.hipGraphNode_t
	if err := check(C.hipGraphAddMemAllocNode(&alloc, g, nil, 0, params)); err != nil {
		return err
	}
	dev := params.dptr
	if err := check(C.hipGraphAddMemcpyNode1D(&up, g, &alloc, 1, dev, host, size, C.hipMemcpyHostToDevice)); err != nil {
		return err
	}
	args := []unsafe.Pointer{unsafe.Pointer(&dev), unsafe.Pointer(&n)}
	kp := C.hipKernelNodeParams{_func: fn, kernelParams: &args[0]}
	if err := check(C.hipGraphAddKernelNode(&kernel, g, &up, 1, &kp)); err != nil {
		return err
	}
	if err := check(C.hipGraphAddMemcpyNode1D(&down, g, &kernel, 1, host, dev, size, C.hipMemcpyDeviceToHost)); err != nil {
		return err
	}
	if err := check(C.hipGraphAddMemFreeNode(&free, g, &down, 1, dev)); err != nil {
		return err
	}
	var exec C.hipGraphExec_t
	if err := check(C.hipGraphInstantiate(&exec, g, nil, nil, 0)); err != nil {
		return err
	}
	defer C.hipGraphExecDestroy(exec)
	if err := check(C.hipGraphLaunch(exec, s)); err != nil {
		return err
	}
	return check(C.hipStreamSynchronize(s))
}

// hipMalloc memory used by a graph and freed with hipFree after it ran.
func plainMemoryUsedByGraph(g C.hipGraph_t, exec C.hipGraphExec_t, s C.hipStream_t, n C.size_t) {
	var p unsafe.Pointer
	C.hipMalloc(&p, n)
	var set C.hipGraphNode_t
	mp := C.hipMemsetParams{dst: p, elementSize: 1, width: n, height: 1}
	C.hipGraphAddMemsetNode(&set, g, nil, 0, &mp)
	C.hipGraphLaunch(exec, s)
	C.hipStreamSynchronize(s)
	C.hipFree(p)
}

// The variable is reassigned to a graph allocation before the free node.
func reassigned(g C.hipGraph_t) {
	var p unsafe.Pointer
	C.hipMalloc(&p, 64)
	C.hipFree(p)
	var params C.hipMemAllocNodeParams
	params.bytesize = 64
	var alloc, free C.hipGraphNode_t
	C.hipGraphAddMemAllocNode(&alloc, g, nil, 0, &params)
	p = params.dptr
	C.hipGraphAddMemFreeNode(&free, g, &alloc, 1, p)
}

// Memory from C code the analysis does not model: unknown, silent.
func fromC(g C.hipGraph_t) {
	p := C.poolBuffer()
	var free C.hipGraphNode_t
	C.hipGraphAddMemFreeNode(&free, g, nil, 0, p)
}

// An unknown C function may replace the pointer.
func replacedByC(g C.hipGraph_t) {
	var p unsafe.Pointer
	C.hipMalloc(&p, 64)
	C.initBuffer(&p)
	var free C.hipGraphNode_t
	C.hipGraphAddMemFreeNode(&free, g, nil, 0, p)
}

// A Go function the analysis knows nothing about may replace it too.
func replacedByGo(g C.hipGraph_t, refill func(*unsafe.Pointer)) {
	var p unsafe.Pointer
	C.hipMalloc(&p, 64)
	refill(&p)
	var free C.hipGraphNode_t
	C.hipGraphAddMemFreeNode(&free, g, nil, 0, p)
}

type arena struct {
	base unsafe.Pointer
}

// A field of a parameter: unknown provenance.
func (a *arena) release(g C.hipGraph_t, dep C.hipGraphNode_t) { // want release:"freesParam\\[-1.base\\]"
	var free C.hipGraphNode_t
	C.hipGraphAddMemFreeNode(&free, g, &dep, 1, a.base)
}

// Freed once, in a deferred closure the analysis does not order.
func deferredClosure(g C.hipGraph_t, s C.hipStream_t) {
	var params C.hipMemAllocNodeParams
	params.bytesize = 64
	var alloc C.hipGraphNode_t
	C.hipGraphAddMemAllocNode(&alloc, g, nil, 0, &params)
	defer func() { C.hipFreeAsync(params.dptr, s) }()
}
