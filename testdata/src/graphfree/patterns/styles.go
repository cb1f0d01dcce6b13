// Package patterns holds graph free-node hazards and their correct twins in
// the styles real Go GPU code is written in. HIP prototypes are declared by
// hand, without the HIP headers.
package patterns

/*
#include <stddef.h>
typedef int hipError_t;
typedef struct ihipGraph* hipGraph_t;
typedef struct hipGraphNode* hipGraphNode_t;
typedef struct ihipStream_t* hipStream_t;
typedef struct hipMemAllocNodeParams {
	size_t bytesize;
	void* dptr;
} hipMemAllocNodeParams;
typedef struct hipKernelNodeParams {
	void* func;
	void** kernelParams;
} hipKernelNodeParams;
#define HIP_OK 0
#define CAPTURE_GLOBAL 0
hipError_t hipMalloc(void** ptr, size_t size);
hipError_t hipMallocAsync(void** ptr, size_t size, hipStream_t stream);
hipError_t hipFree(void* ptr);
hipError_t hipGraphAddMemAllocNode(hipGraphNode_t* node, hipGraph_t graph, const hipGraphNode_t* deps,
	size_t ndeps, hipMemAllocNodeParams* params);
hipError_t hipGraphAddMemFreeNode(hipGraphNode_t* node, hipGraph_t graph, const hipGraphNode_t* deps,
	size_t ndeps, void* ptr);
hipError_t hipGraphAddKernelNode(hipGraphNode_t* node, hipGraph_t graph, const hipGraphNode_t* deps,
	size_t ndeps, const hipKernelNodeParams* params);
hipError_t hipStreamBeginCapture(hipStream_t stream, int mode);
hipError_t hipStreamEndCapture(hipStream_t stream, hipGraph_t* graph);
*/
import "C"

import (
	"fmt"
	"runtime"
	"sync"
	"unsafe"
)

const n = 1 << 20

// Style: every call wrapped in check().
func check(r C.hipError_t) error {
	if r != C.HIP_OK {
		return fmt.Errorf("hip error %d", int(r))
	}
	return nil
}

func checkDevice(g C.hipGraph_t) error {
	var p unsafe.Pointer
	if err := check(C.hipMalloc(&p, n)); err != nil {
		return err
	}
	var free C.hipGraphNode_t
	return check(C.hipGraphAddMemFreeNode(&free, g, nil, 0, p)) // want `hipGraphAddMemFreeNode frees p, which is device memory from hipMalloc, not a graph allocation`
}

func checkGraph(g C.hipGraph_t) error {
	params := C.hipMemAllocNodeParams{bytesize: n}
	var alloc, free C.hipGraphNode_t
	if err := check(C.hipGraphAddMemAllocNode(&alloc, g, nil, 0, &params)); err != nil {
		return err
	}
	return check(C.hipGraphAddMemFreeNode(&free, g, &alloc, 1, params.dptr))
}

// A common slip: the address of the variable, not the memory it holds.
func checkAddressOfPointer(g C.hipGraph_t) error {
	params := C.hipMemAllocNodeParams{bytesize: n}
	var alloc, free C.hipGraphNode_t
	if err := check(C.hipGraphAddMemAllocNode(&alloc, g, nil, 0, &params)); err != nil {
		return err
	}
	p := params.dptr
	return check(C.hipGraphAddMemFreeNode(&free, g, &alloc, 1, unsafe.Pointer(&p))) // want `hipGraphAddMemFreeNode frees unsafe.Pointer\(&p\), which is Go memory from the address of the Go variable p`
}

var kernelFunc unsafe.Pointer

func checkKernelNotWaitedFor(g C.hipGraph_t) error {
	params := C.hipMemAllocNodeParams{bytesize: n}
	var alloc, kernel, free C.hipGraphNode_t
	if err := check(C.hipGraphAddMemAllocNode(&alloc, g, nil, 0, &params)); err != nil {
		return err
	}
	args := []unsafe.Pointer{unsafe.Pointer(&params.dptr)}
	kp := C.hipKernelNodeParams{_func: kernelFunc, kernelParams: &args[0]}
	if err := check(C.hipGraphAddKernelNode(&kernel, g, &alloc, 1, &kp)); err != nil {
		return err
	}
	return check(C.hipGraphAddMemFreeNode(&free, g, &alloc, 1, params.dptr)) // want `free node for params.dptr does not depend on the kernel node \(hipGraphAddKernelNode\) that uses the memory`
}

func checkKernelThenFree(g C.hipGraph_t) error {
	params := C.hipMemAllocNodeParams{bytesize: n}
	var alloc, kernel, free C.hipGraphNode_t
	if err := check(C.hipGraphAddMemAllocNode(&alloc, g, nil, 0, &params)); err != nil {
		return err
	}
	args := []unsafe.Pointer{unsafe.Pointer(&params.dptr)}
	kp := C.hipKernelNodeParams{_func: kernelFunc, kernelParams: &args[0]}
	if err := check(C.hipGraphAddKernelNode(&kernel, g, &alloc, 1, &kp)); err != nil {
		return err
	}
	return check(C.hipGraphAddMemFreeNode(&free, g, &kernel, 1, params.dptr))
}

// Style: the status converted to a type with an error method.
type status C.hipError_t

func (s status) error(what string) error {
	if s != C.HIP_OK {
		return fmt.Errorf("%s: hip error %d", what, int(s))
	}
	return nil
}

func statusOutsideCapture(g C.hipGraph_t, s C.hipStream_t) error {
	var p unsafe.Pointer
	if err := status(C.hipMallocAsync(&p, n, s)).error("alloc"); err != nil {
		return err
	}
	var free C.hipGraphNode_t
	return status(C.hipGraphAddMemFreeNode(&free, g, nil, 0, p)).error("free node") // want `hipGraphAddMemFreeNode frees p, which hipMallocAsync allocated outside stream capture`
}

func statusUnderCapture(s C.hipStream_t) error {
	if err := status(C.hipStreamBeginCapture(s, C.CAPTURE_GLOBAL)).error("begin"); err != nil {
		return err
	}
	var p unsafe.Pointer
	if err := status(C.hipMallocAsync(&p, n, s)).error("alloc"); err != nil {
		return err
	}
	var g C.hipGraph_t
	if err := status(C.hipStreamEndCapture(s, &g)).error("end"); err != nil {
		return err
	}
	var free C.hipGraphNode_t
	return status(C.hipGraphAddMemFreeNode(&free, g, nil, 0, p)).error("free node")
}

// Style: a Result helper that panics on failure.
func Result(r C.hipError_t) {
	if r != C.HIP_OK {
		panic(fmt.Sprintf("hip error %d", int(r)))
	}
}

func resultFreedTwice(g C.hipGraph_t) {
	params := C.hipMemAllocNodeParams{bytesize: n}
	var alloc, free C.hipGraphNode_t
	Result(C.hipGraphAddMemAllocNode(&alloc, g, nil, 0, &params))
	Result(C.hipGraphAddMemFreeNode(&free, g, &alloc, 1, params.dptr))
	Result(C.hipFree(params.dptr)) // want `hipFree frees params.dptr, which hipGraphAddMemFreeNode already freed`
}

func resultFreedOnce(g C.hipGraph_t) {
	params := C.hipMemAllocNodeParams{bytesize: n}
	var alloc, free C.hipGraphNode_t
	Result(C.hipGraphAddMemAllocNode(&alloc, g, nil, 0, &params))
	Result(C.hipGraphAddMemFreeNode(&free, g, &alloc, 1, params.dptr))
}

// Style: every call runs on a locked OS thread through ctx.Do. The closure
// runs during the call, on the caller's variables.
type Context struct{ mu sync.Mutex }

func (c *Context) Do(fn func() error) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	return fn()
}

func ctxDoDevice(ctx *Context, g C.hipGraph_t) error {
	var p unsafe.Pointer
	if err := ctx.Do(func() error { return check(C.hipMalloc(&p, n)) }); err != nil {
		return err
	}
	var free C.hipGraphNode_t
	return ctx.Do(func() error {
		return check(C.hipGraphAddMemFreeNode(&free, g, nil, 0, p)) // want `hipGraphAddMemFreeNode frees p, which is device memory from hipMalloc, not a graph allocation`
	})
}

func ctxDoGraph(ctx *Context, g C.hipGraph_t) error {
	params := C.hipMemAllocNodeParams{bytesize: n}
	var alloc, free C.hipGraphNode_t
	if err := ctx.Do(func() error { return check(C.hipGraphAddMemAllocNode(&alloc, g, nil, 0, &params)) }); err != nil {
		return err
	}
	return ctx.Do(func() error { return check(C.hipGraphAddMemFreeNode(&free, g, &alloc, 1, params.dptr)) })
}

func ctxDoFreedTwice(ctx *Context, g C.hipGraph_t) {
	params := C.hipMemAllocNodeParams{bytesize: n}
	var alloc, free C.hipGraphNode_t
	ctx.Do(func() error {
		if err := check(C.hipGraphAddMemAllocNode(&alloc, g, nil, 0, &params)); err != nil {
			return err
		}
		return check(C.hipGraphAddMemFreeNode(&free, g, &alloc, 1, params.dptr))
	})
	ctx.Do(func() error { return check(C.hipFree(params.dptr)) }) // want `hipFree frees params.dptr, which hipGraphAddMemFreeNode already freed`
}

// Style: device pointers kept as uintptr and converted back and forth.
type DevPtr uintptr

func allocDevice() DevPtr { // want allocDevice:"returnsMemory\\[0=device:hipMalloc\\]"
	var p unsafe.Pointer
	C.hipMalloc(&p, n)
	return DevPtr(uintptr(p))
}

func allocGraph(g C.hipGraph_t) DevPtr { // want allocGraph:"returnsMemory\\[0=graph:hipGraphAddMemAllocNode\\]"
	params := C.hipMemAllocNodeParams{bytesize: n}
	var alloc C.hipGraphNode_t
	C.hipGraphAddMemAllocNode(&alloc, g, nil, 0, &params)
	return DevPtr(uintptr(params.dptr))
}

func uintptrDevice(g C.hipGraph_t) {
	p := allocDevice()
	var free C.hipGraphNode_t
	C.hipGraphAddMemFreeNode(&free, g, nil, 0, unsafe.Pointer(uintptr(p))) // want `hipGraphAddMemFreeNode frees unsafe.Pointer\(uintptr\(p\)\), which is device memory from hipMalloc \(via allocDevice\)`
}

func uintptrGraph(g C.hipGraph_t) {
	p := allocGraph(g)
	var free C.hipGraphNode_t
	C.hipGraphAddMemFreeNode(&free, g, nil, 0, unsafe.Pointer(uintptr(p)))
}

// A struct carrying the graph allocation as uintptr with its node.
type graphAlloc struct {
	ptr  uintptr
	node C.hipGraphNode_t
}

func newGraphAlloc(g C.hipGraph_t) graphAlloc { // want newGraphAlloc:"returnsMemory\\[0.ptr=graph:hipGraphAddMemAllocNode\\]"
	params := C.hipMemAllocNodeParams{bytesize: n}
	var a graphAlloc
	C.hipGraphAddMemAllocNode(&a.node, g, nil, 0, &params)
	a.ptr = uintptr(params.dptr)
	return a
}

func structGraph(g C.hipGraph_t) {
	a := newGraphAlloc(g)
	var free C.hipGraphNode_t
	C.hipGraphAddMemFreeNode(&free, g, &a.node, 1, unsafe.Pointer(a.ptr))
}

func structDevice(g C.hipGraph_t) {
	var a graphAlloc
	var p unsafe.Pointer
	C.hipMalloc(&p, n)
	a.ptr = uintptr(p)
	var free C.hipGraphNode_t
	C.hipGraphAddMemFreeNode(&free, g, nil, 0, unsafe.Pointer(a.ptr)) // want `hipGraphAddMemFreeNode frees unsafe.Pointer\(a.ptr\), which is device memory from hipMalloc`
}

// Style: buffers and graph allocations cached in package-level maps by
// generated wrappers.
var (
	cacheMu   sync.Mutex
	devBufs   = map[string]unsafe.Pointer{}
	graphBufs = map[string]unsafe.Pointer{}
)

func cachedDevice(name string) unsafe.Pointer { // want cachedDevice:"returnsMemory\\[0=device:hipMalloc\\]"
	cacheMu.Lock()
	defer cacheMu.Unlock()
	if p, ok := devBufs[name]; ok {
		return p
	}
	var p unsafe.Pointer
	C.hipMalloc(&p, n)
	devBufs[name] = p
	return p
}

func cachedGraph(g C.hipGraph_t, name string) unsafe.Pointer { // want cachedGraph:"returnsMemory\\[0=graph:hipGraphAddMemAllocNode\\]"
	cacheMu.Lock()
	defer cacheMu.Unlock()
	if p, ok := graphBufs[name]; ok {
		return p
	}
	params := C.hipMemAllocNodeParams{bytesize: n}
	var alloc C.hipGraphNode_t
	C.hipGraphAddMemAllocNode(&alloc, g, nil, 0, &params)
	graphBufs[name] = params.dptr
	return params.dptr
}

func mapCachedDevice(g C.hipGraph_t) {
	var free C.hipGraphNode_t
	C.hipGraphAddMemFreeNode(&free, g, nil, 0, cachedDevice("x")) // want `hipGraphAddMemFreeNode frees cachedDevice\("x"\), which is device memory from hipMalloc \(via cachedDevice\)`
}

func mapCachedGraph(g C.hipGraph_t) {
	var free C.hipGraphNode_t
	C.hipGraphAddMemFreeNode(&free, g, nil, 0, cachedGraph(g, "x"))
}

func mapElementDevice(g C.hipGraph_t) {
	var p unsafe.Pointer
	C.hipMalloc(&p, n)
	devBufs["y"] = p
	var free C.hipGraphNode_t
	C.hipGraphAddMemFreeNode(&free, g, nil, 0, devBufs["y"]) // want `hipGraphAddMemFreeNode frees devBufs\["y"\], which is device memory from hipMalloc`
}

func mapElementGraph(g C.hipGraph_t) {
	params := C.hipMemAllocNodeParams{bytesize: n}
	var alloc, free C.hipGraphNode_t
	C.hipGraphAddMemAllocNode(&alloc, g, nil, 0, &params)
	graphBufs["y"] = params.dptr
	C.hipGraphAddMemFreeNode(&free, g, &alloc, 1, graphBufs["y"])
}
