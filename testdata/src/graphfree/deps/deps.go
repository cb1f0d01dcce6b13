// Package deps builds graphs by hand: a free node must depend, directly or
// through other nodes, on every node that uses the memory it frees (HL3003).
package deps

// #cgo CFLAGS: -I${SRCDIR}/../../../include
// #include <hip/hip_runtime_api.h>
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

func allocParams(n C.size_t) C.hipMemAllocNodeParams {
	var params C.hipMemAllocNodeParams
	params.poolProps.allocType = C.hipMemAllocationTypePinned
	params.poolProps.location._type = C.hipMemLocationTypeDevice
	params.bytesize = n
	return params
}

// Silent: alloc → kernel → free, the free depending on the kernel.
func allocKernelFree(g C.hipGraph_t, fn unsafe.Pointer, n C.int) error {
	params := allocParams(C.size_t(n) * 4)
	var alloc, kernel, free C.hipGraphNode_t
	if err := check(C.hipGraphAddMemAllocNode(&alloc, g, nil, 0, &params)); err != nil {
		return err
	}
	buf := params.dptr
	args := []unsafe.Pointer{unsafe.Pointer(&buf), unsafe.Pointer(&n)}
	var kp C.hipKernelNodeParams
	kp._func = fn
	kp.kernelParams = &args[0]
	if err := check(C.hipGraphAddKernelNode(&kernel, g, &alloc, 1, &kp)); err != nil {
		return err
	}
	return check(C.hipGraphAddMemFreeNode(&free, g, &kernel, 1, buf))
}

// The free depends only on the alloc node while a kernel uses the memory.
func freeBeforeKernel(g C.hipGraph_t, fn unsafe.Pointer, n C.int) error {
	params := allocParams(C.size_t(n) * 4)
	var alloc, kernel, free C.hipGraphNode_t
	if err := check(C.hipGraphAddMemAllocNode(&alloc, g, nil, 0, &params)); err != nil {
		return err
	}
	args := []unsafe.Pointer{unsafe.Pointer(&params.dptr), unsafe.Pointer(&n)}
	kp := C.hipKernelNodeParams{_func: fn, kernelParams: &args[0]}
	if err := check(C.hipGraphAddKernelNode(&kernel, g, &alloc, 1, &kp)); err != nil {
		return err
	}
	return check(C.hipGraphAddMemFreeNode(&free, g, &alloc, 1, params.dptr)) // want `free node for params.dptr does not depend on the kernel node \(hipGraphAddKernelNode\) that uses the memory: the graph may free it while that node still runs; add the kernel node to the free node's dependencies`
}

// Silent: dependencies through a slice, transitively through a memcpy node.
func transitive(g C.hipGraph_t, fn unsafe.Pointer, host unsafe.Pointer, n C.int) {
	params := allocParams(C.size_t(n) * 4)
	var alloc, kernel, copyBack, free C.hipGraphNode_t
	C.hipGraphAddMemAllocNode(&alloc, g, nil, 0, &params)
	dptr := params.dptr
	args := [2]unsafe.Pointer{unsafe.Pointer(&dptr), unsafe.Pointer(&n)}
	kp := C.hipKernelNodeParams{_func: fn, kernelParams: (*unsafe.Pointer)(unsafe.Pointer(&args))}
	C.hipGraphAddKernelNode(&kernel, g, &alloc, 1, &kp)
	C.hipGraphAddMemcpyNode1D(&copyBack, g, &kernel, 1, host, dptr, C.size_t(n)*4, C.hipMemcpyDeviceToHost)
	deps := []C.hipGraphNode_t{copyBack}
	C.hipGraphAddMemFreeNode(&free, g, &deps[0], C.size_t(len(deps)), dptr)
}

// A memset node and a memcpy node use the memory; the free waits for only one.
func memsetAndCopy(g C.hipGraph_t, host unsafe.Pointer, n C.size_t) {
	params := allocParams(n)
	var alloc, set, cp, free C.hipGraphNode_t
	C.hipGraphAddMemAllocNode(&alloc, g, nil, 0, &params)
	p := params.dptr
	mp := C.hipMemsetParams{dst: p, elementSize: 1, width: n, height: 1}
	C.hipGraphAddMemsetNode(&set, g, &alloc, 1, &mp)
	C.hipGraphAddMemcpyNode1D(&cp, g, &alloc, 1, host, p, n, C.hipMemcpyDeviceToHost)
	deps := []C.hipGraphNode_t{alloc, set}
	C.hipGraphAddMemFreeNode(&free, g, &deps[0], C.size_t(len(deps)), p) // want `free node for p does not depend on the memcpy node \(hipGraphAddMemcpyNode1D\)`
}

// Silent: the missing edge is added afterwards with hipGraphAddDependencies.
func edgeAddedLater(g C.hipGraph_t, host unsafe.Pointer, n C.size_t) {
	params := allocParams(n)
	var alloc, cp, free C.hipGraphNode_t
	C.hipGraphAddMemAllocNode(&alloc, g, nil, 0, &params)
	C.hipGraphAddMemcpyNode1D(&cp, g, &alloc, 1, host, params.dptr, n, C.hipMemcpyDeviceToHost)
	C.hipGraphAddMemFreeNode(&free, g, &alloc, 1, params.dptr)
	C.hipGraphAddDependencies(g, &cp, &free, 1)
}

// The kernel was made to depend on the free node: it uses freed memory.
func useAfterFree(g C.hipGraph_t, fn unsafe.Pointer, n C.int) {
	params := allocParams(C.size_t(n) * 4)
	var alloc, kernel, free C.hipGraphNode_t
	C.hipGraphAddMemAllocNode(&alloc, g, nil, 0, &params)
	buf := params.dptr
	C.hipGraphAddMemFreeNode(&free, g, &alloc, 1, buf) // want `the kernel node \(hipGraphAddKernelNode\) uses buf after the free node that frees it`
	args := []unsafe.Pointer{unsafe.Pointer(&buf)}
	kp := C.hipKernelNodeParams{_func: fn, kernelParams: &args[0]}
	C.hipGraphAddKernelNode(&kernel, g, &free, 1, &kp)
}

// Silent: a dependency the analysis cannot see (an empty join node from
// another call) might order the kernel before the free.
func unknownJoin(g C.hipGraph_t, fn unsafe.Pointer, join C.hipGraphNode_t, n C.int) {
	params := allocParams(C.size_t(n) * 4)
	var alloc, kernel, free C.hipGraphNode_t
	C.hipGraphAddMemAllocNode(&alloc, g, nil, 0, &params)
	buf := params.dptr
	args := []unsafe.Pointer{unsafe.Pointer(&buf)}
	kp := C.hipKernelNodeParams{_func: fn, kernelParams: &args[0]}
	C.hipGraphAddKernelNode(&kernel, g, &alloc, 1, &kp)
	C.hipGraphAddMemFreeNode(&free, g, &join, 1, buf)
}

// Silent: many buffers, each freed after the kernels that use it, in loops.
func perLayer(g C.hipGraph_t, fn unsafe.Pointer, layers int) {
	var prev C.hipGraphNode_t
	for i := 0; i < layers; i++ {
		params := allocParams(4096)
		var alloc, kernel, free C.hipGraphNode_t
		C.hipGraphAddMemAllocNode(&alloc, g, nil, 0, &params)
		p := params.dptr
		args := []unsafe.Pointer{unsafe.Pointer(&p)}
		kp := C.hipKernelNodeParams{_func: fn, kernelParams: &args[0]}
		deps := []C.hipGraphNode_t{alloc}
		if i > 0 {
			deps = append(deps, prev)
		}
		C.hipGraphAddKernelNode(&kernel, g, &deps[0], C.size_t(len(deps)), &kp)
		C.hipGraphAddMemFreeNode(&free, g, &kernel, 1, p)
		prev = free
	}
}

// Two users, neither waited for.
func twoUsersMissing(g C.hipGraph_t, host unsafe.Pointer, n C.size_t) {
	params := allocParams(n)
	var alloc, set, cp, free C.hipGraphNode_t
	C.hipGraphAddMemAllocNode(&alloc, g, nil, 0, &params)
	mp := C.hipMemsetParams{dst: params.dptr, elementSize: 1, width: n, height: 1}
	C.hipGraphAddMemsetNode(&set, g, &alloc, 1, &mp)
	C.hipGraphAddMemcpyNode1D(&cp, g, &set, 1, host, params.dptr, n, C.hipMemcpyDeviceToHost)
	C.hipGraphAddMemFreeNode(&free, g, &alloc, 1, params.dptr) // want `does not depend on the memset node \(hipGraphAddMemsetNode\) .* \(and 1 more nodes using it\)`
}
