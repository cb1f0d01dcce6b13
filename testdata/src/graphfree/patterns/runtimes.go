package patterns

/*
#include <stddef.h>
typedef int hipError_t;
typedef int cudaError_t;
typedef struct ihipGraph* hipGraph_t;
typedef struct hipGraphNode* hipGraphNode_t;
typedef struct CUgraph_st* cudaGraph_t;
typedef struct CUgraphNode_st* cudaGraphNode_t;
hipError_t hipMalloc(void** ptr, size_t size);
hipError_t hipGraphAddMemFreeNode(hipGraphNode_t* node, hipGraph_t graph, const hipGraphNode_t* deps,
	size_t ndeps, void* ptr);
cudaError_t cudaMalloc(void** ptr, size_t size);
cudaError_t cudaGraphAddMemFreeNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* deps,
	size_t ndeps, void* ptr);
*/
import "C"

import (
	"errors"
	"unsafe"
)

// Style: an interface over several runtimes, with a HIP and a CUDA
// implementation. A call through the interface does what every
// implementation does.
type Runtime interface {
	Malloc(size int) (unsafe.Pointer, error)
	AddFreeNode(graph unsafe.Pointer, p unsafe.Pointer) error
}

type hipRuntime struct{}

func (hipRuntime) Malloc(size int) (unsafe.Pointer, error) { // want Malloc:"returnsMemory\\[0=device:hipMalloc\\]"
	var p unsafe.Pointer
	if C.hipMalloc(&p, C.size_t(size)) != 0 {
		return nil, errors.New("hipMalloc failed")
	}
	return p, nil
}

func (hipRuntime) AddFreeNode(graph unsafe.Pointer, p unsafe.Pointer) error { // want AddFreeNode:"freesParam\\[1\\]"
	var node C.hipGraphNode_t
	if C.hipGraphAddMemFreeNode(&node, C.hipGraph_t(graph), nil, 0, p) != 0 {
		return errors.New("hipGraphAddMemFreeNode failed")
	}
	return nil
}

type cudaRuntime struct{}

func (cudaRuntime) Malloc(size int) (unsafe.Pointer, error) { // want Malloc:"returnsMemory\\[0=device:cudaMalloc\\]"
	var p unsafe.Pointer
	if C.cudaMalloc(&p, C.size_t(size)) != 0 {
		return nil, errors.New("cudaMalloc failed")
	}
	return p, nil
}

func (cudaRuntime) AddFreeNode(graph unsafe.Pointer, p unsafe.Pointer) error { // want AddFreeNode:"freesParam\\[1\\]"
	var node C.cudaGraphNode_t
	if C.cudaGraphAddMemFreeNode(&node, C.cudaGraph_t(graph), nil, 0, p) != 0 {
		return errors.New("cudaGraphAddMemFreeNode failed")
	}
	return nil
}

func interfaceDevice(rt Runtime, g unsafe.Pointer) error {
	p, err := rt.Malloc(n)
	if err != nil {
		return err
	}
	return rt.AddFreeNode(g, p) // want `AddFreeNode frees p, which is device memory from hipMalloc \(via Malloc\), not a graph allocation`
}

func interfaceGraph(rt Runtime, g C.hipGraph_t) error {
	p := allocGraph(g)
	return rt.AddFreeNode(unsafe.Pointer(g), unsafe.Pointer(uintptr(p)))
}
