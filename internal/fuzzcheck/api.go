package fuzzcheck

import (
	"fmt"
	"strings"
)

// cfunc is one C function the generated code can call, with the Go types cgo
// gives its parameters and result.
type cfunc struct {
	name   string
	params []string
	result string // "" for void
}

// Parameter types, spelled the way cmd/cgo spells them in _cgo_gotypes.go.
const (
	tErr     = "_Ctype_hipError_t"
	tCuErr   = "_Ctype_CUresult"
	tCudaErr = "_Ctype_cudaError_t"
	tPtr     = "unsafe.Pointer"
	tPPtr    = "*unsafe.Pointer"
	tDptr    = "_Ctype_hipDeviceptr_t"
	tSize    = "_Ctype_size_t"
	tInt     = "_Ctype_int"
	tUint    = "_Ctype_uint"
	tStream  = "*_Ctype_struct_ihipStream_t"
	tEvent   = "*_Ctype_struct_ihipEvent_t"
	tModule  = "*_Ctype_struct_ihipModule_t"
	tFunc    = "*_Ctype_struct_ihipModuleSymbol_t"
	tGraph   = "*_Ctype_struct_ihipGraph"
	tNode    = "*_Ctype_hipGraphNode_t"
	tChar    = "*_Ctype_char"
	tKind    = "_Ctype_hipMemcpyKind"
)

// cfuncs is the runtime API subset the generator calls, with the shapes of
// the fixture header's prototypes (testdata/include).
var cfuncs = func() map[string]cfunc {
	m := map[string]cfunc{}
	add := func(result, name string, params ...string) { m[name] = cfunc{name, params, result} }
	add(tErr, "hipInit", tUint)
	add(tErr, "hipGetDeviceCount", "*"+tInt)
	add(tErr, "hipSetDevice", tInt)
	add(tErr, "hipDeviceGetAttribute", "*"+tInt, "_Ctype_hipDeviceAttribute_t", tInt)
	add(tErr, "hipGetDeviceProperties", "*_Ctype_struct_hipDeviceProp_t", tInt)
	add(tErr, "hipDeviceSynchronize")
	add(tErr, "hipMalloc", tPPtr, tSize)
	add(tErr, "hipMallocManaged", tPPtr, tSize, tUint)
	add(tErr, "hipHostMalloc", tPPtr, tSize, tUint)
	add(tErr, "hipMallocAsync", tPPtr, tSize, tStream)
	add(tErr, "hipFree", tPtr)
	add(tErr, "hipHostFree", tPtr)
	add(tErr, "hipFreeAsync", tPtr, tStream)
	add(tErr, "hipMemset", tPtr, tInt, tSize)
	add(tErr, "hipMemAdvise", tPtr, tSize, "_Ctype_hipMemoryAdvise", tInt)
	add(tErr, "hipMemPrefetchAsync", tPtr, tSize, tInt, tStream)
	add(tErr, "hipMemcpy", tPtr, tPtr, tSize, tKind)
	add(tErr, "hipMemcpyWithStream", tPtr, tPtr, tSize, tKind, tStream)
	add(tErr, "hipMemcpyAsync", tPtr, tPtr, tSize, tKind, tStream)
	add(tErr, "hipMemcpyHtoD", tDptr, tPtr, tSize)
	add(tErr, "hipMemcpyDtoH", tPtr, tDptr, tSize)
	add(tErr, "hipMemcpyDtoD", tDptr, tDptr, tSize)
	add(tErr, "hipMemcpyDtoDAsync", tDptr, tDptr, tSize, tStream)
	add(tErr, "hipMemcpyPeer", tPtr, tInt, tPtr, tInt, tSize)
	add(tErr, "hipMemcpyPeerAsync", tPtr, tInt, tPtr, tInt, tSize, tStream)
	add(tErr, "hipStreamCreate", "*_Ctype_hipStream_t")
	add(tErr, "hipStreamCreateWithFlags", "*_Ctype_hipStream_t", tUint)
	add(tErr, "hipStreamDestroy", tStream)
	add(tErr, "hipStreamSynchronize", tStream)
	add(tErr, "hipStreamQuery", tStream)
	add(tErr, "hipStreamWaitEvent", tStream, tEvent, tUint)
	add(tErr, "hipEventCreate", "*_Ctype_hipEvent_t")
	add(tErr, "hipEventRecord", tEvent, tStream)
	add(tErr, "hipEventSynchronize", tEvent)
	add(tErr, "hipEventQuery", tEvent)
	add(tErr, "hipModuleLoad", "*_Ctype_hipModule_t", tChar)
	add(tErr, "hipModuleLoadData", "*_Ctype_hipModule_t", tPtr)
	add(tErr, "hipModuleLoadDataEx", "*_Ctype_hipModule_t", tPtr, tUint, "*_Ctype_hipJitOption", tPPtr)
	add(tErr, "hipModuleUnload", tModule)
	add(tErr, "hipModuleGetFunction", "*_Ctype_hipFunction_t", tModule, tChar)
	add(tErr, "hipModuleGetGlobal", "*"+tDptr, "*"+tSize, tModule, tChar)
	add(tErr, "hipModuleLaunchKernel", tFunc, tUint, tUint, tUint, tUint, tUint, tUint, tUint, tStream, tPPtr, tPPtr)
	add(tErr, "hipLaunchKernel", tPtr, "_Ctype_struct_dim3", "_Ctype_struct_dim3", tPPtr, tSize, tStream)
	add(tErr, "hipGraphCreate", "*_Ctype_hipGraph_t", tUint)
	add(tErr, "hipGraphAddMemAllocNode", tNode, tGraph, tNode, tSize, "*_Ctype_struct_hipMemAllocNodeParams")
	add(tErr, "hipGraphAddMemFreeNode", tNode, tGraph, tNode, tSize, tPtr)
	add(tErr, "hipGraphAddKernelNode", tNode, tGraph, tNode, tSize, "*_Ctype_struct_hipKernelNodeParams")
	add(tErr, "hipGraphAddMemcpyNode1D", tNode, tGraph, tNode, tSize, tPtr, tPtr, tSize, tKind)
	add(tErr, "hipGraphAddDependencies", tGraph, tNode, tNode, tSize)
	add(tErr, "hipStreamBeginCapture", tStream, "_Ctype_hipStreamCaptureMode")
	add(tErr, "hipStreamEndCapture", tStream, "*_Ctype_hipGraph_t")
	// CUDA twins, with their own handle types.
	add(tCudaErr, "cudaMalloc", tPPtr, tSize)
	add(tCudaErr, "cudaMallocManaged", tPPtr, tSize, tUint)
	add(tCudaErr, "cudaFree", tPtr)
	add(tCudaErr, "cudaMemcpy", tPtr, tPtr, tSize, "_Ctype_enum_cudaMemcpyKind")
	add(tCudaErr, "cudaDeviceSynchronize")
	add(tCuErr, "cuModuleLoad", "*_Ctype_CUmodule", tChar)
	add(tCuErr, "cuModuleUnload", "*_Ctype_struct_CUmod_st")
	add(tCuErr, "cuModuleGetFunction", "*_Ctype_CUfunction", "*_Ctype_struct_CUmod_st", tChar)
	// libc and cgo's own helpers.
	add("unsafe.Pointer", "_CMalloc", tSize)
	add("_Ctype_void", "free", tPtr)
	add("*_Ctype_char", "CString", "string")
	add("string", "GoString", tChar)
	return m
}()

// cgoTypes is the part of _cgo_gotypes.go that declares C types, as cmd/cgo
// writes it for the fixture header (hip/hip_runtime_api.h).
const cgoTypes = `
type _Ctype_char int8
type _Ctype_uchar uint8
type _Ctype_int int32
type _Ctype_uint uint32
type _Ctype_ulong uint64
type _Ctype_void [0]byte
type _Ctype_size_t = _Ctype_ulong
type _Ctype_hipError_t uint32
type _Ctype_cudaError_t uint32
type _Ctype_CUresult uint32
type _Ctype_hipMemcpyKind uint32
type _Ctype_enum_cudaMemcpyKind uint32
type _Ctype_hipDeviceAttribute_t uint32
type _Ctype_hipMemoryAdvise uint32
type _Ctype_hipStreamCaptureMode uint32
type _Ctype_hipJitOption uint32
type _Ctype_hipMemAllocationType uint32
type _Ctype_hipMemLocationType uint32
type _Ctype_hipDeviceptr_t = unsafe.Pointer
type _Ctype_hipEvent_t *_Ctype_struct_ihipEvent_t
type _Ctype_hipFunction_t *_Ctype_struct_ihipModuleSymbol_t
type _Ctype_hipGraphNode_t *_Ctype_struct_hipGraphNode
type _Ctype_hipGraph_t *_Ctype_struct_ihipGraph
type _Ctype_hipModule_t *_Ctype_struct_ihipModule_t
type _Ctype_hipStream_t *_Ctype_struct_ihipStream_t
type _Ctype_CUmodule *_Ctype_struct_CUmod_st
type _Ctype_CUfunction *_Ctype_struct_CUfunc_st
type _Ctype_struct_CUmod_st _cgopackage.Incomplete
type _Ctype_struct_CUfunc_st _cgopackage.Incomplete
type _Ctype_struct_hipGraphNode _cgopackage.Incomplete
type _Ctype_struct_ihipEvent_t _cgopackage.Incomplete
type _Ctype_struct_ihipGraph _cgopackage.Incomplete
type _Ctype_struct_ihipModuleSymbol_t _cgopackage.Incomplete
type _Ctype_struct_ihipModule_t _cgopackage.Incomplete
type _Ctype_struct_ihipStream_t _cgopackage.Incomplete
type _Ctype_dim3 = _Ctype_struct_dim3
type _Ctype_struct_dim3 struct {
	x _Ctype_uint
	y _Ctype_uint
	z _Ctype_uint
}
type _Ctype_hipDeviceProp_t = _Ctype_struct_hipDeviceProp_t
type _Ctype_struct_hipDeviceProp_t struct {
	name                    [256]_Ctype_char
	totalGlobalMem          _Ctype_size_t
	major                   _Ctype_int
	minor                   _Ctype_int
	multiProcessorCount     _Ctype_int
	managedMemory           _Ctype_int
	concurrentManagedAccess _Ctype_int
	pageableMemoryAccess    _Ctype_int
	gcnArchName             [256]_Ctype_char
}
type _Ctype_hipKernelNodeParams = _Ctype_struct_hipKernelNodeParams
type _Ctype_struct_hipKernelNodeParams struct {
	blockDim       _Ctype_struct_dim3
	extra          *unsafe.Pointer
	_func          unsafe.Pointer
	gridDim        _Ctype_struct_dim3
	kernelParams   *unsafe.Pointer
	sharedMemBytes _Ctype_uint
	_              [4]byte
}
type _Ctype_hipMemLocation = _Ctype_struct_hipMemLocation
type _Ctype_struct_hipMemLocation struct {
	_type _Ctype_hipMemLocationType
	id    _Ctype_int
}
type _Ctype_struct_hipMemPoolProps struct {
	allocType               _Ctype_hipMemAllocationType
	handleTypes             _Ctype_int
	location                _Ctype_struct_hipMemLocation
	win32SecurityAttributes unsafe.Pointer
	reserved                [64]_Ctype_uchar
}
type _Ctype_hipMemAllocNodeParams = _Ctype_struct_hipMemAllocNodeParams
type _Ctype_struct_hipMemAllocNodeParams struct {
	poolProps       _Ctype_struct_hipMemPoolProps
	accessDescs     unsafe.Pointer
	accessDescCount _Ctype_size_t
	bytesize        _Ctype_size_t
	dptr            unsafe.Pointer
}

const _Ciconst_hipSuccess = 0x0
const _Ciconst_cudaSuccess = 0x0
const _Ciconst_CUDA_SUCCESS = 0x0
const _Ciconst_hipErrorInvalidValue = 0x1
const _Ciconst_hipMemcpyHostToHost = 0x0
const _Ciconst_hipMemcpyHostToDevice = 0x1
const _Ciconst_hipMemcpyDeviceToHost = 0x2
const _Ciconst_hipMemcpyDeviceToDevice = 0x3
const _Ciconst_hipMemcpyDefault = 0x4
const _Ciconst_cudaMemcpyDeviceToDevice = 0x3
const _Ciconst_cudaMemcpyDeviceToHost = 0x2
const _Ciconst_hipStreamDefault = 0x0
const _Ciconst_hipStreamNonBlocking = 0x1
const _Ciconst_hipMemAttachGlobal = 0x1
const _Ciconst_hipHostMallocDefault = 0x0
const _Ciconst_hipDeviceAttributeConcurrentManagedAccess = 0x9
const _Ciconst_hipDeviceAttributeManagedMemory = 0x18
const _Ciconst_hipDeviceAttributePageableMemoryAccess = 0x41
const _Ciconst_hipMemAdviseSetReadMostly = 0x1
const _Ciconst_hipStreamCaptureModeGlobal = 0x0

func _Cmacro_hipStreamPerThread() _Ctype_hipStream_t { return nil }
`

// gotypes returns a package's _cgo_gotypes.go: cgo's support file, which
// analyzers skip, declaring the C types and every C function.
func gotypes(pkg string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "// Code generated by cmd/cgo; DO NOT EDIT.\n\npackage %s\n\n", pkg)
	b.WriteString("import \"unsafe\"\n\nimport _cgopackage \"runtime/cgo\"\n\n")
	b.WriteString("type _ _cgopackage.Incomplete\n\n")
	b.WriteString("func _Cgo_ptr(ptr unsafe.Pointer) unsafe.Pointer { return ptr }\n")
	b.WriteString("func _cgoCheckPointer(interface{}, interface{}) {}\n")
	b.WriteString(cgoTypes)
	for _, name := range sortedKeys(cfuncs) {
		f := cfuncs[name]
		var params []string
		for i, p := range f.params {
			params = append(params, fmt.Sprintf("p%d %s", i, p))
		}
		res := ""
		if f.result != "" {
			res = " (r1 " + f.result + ")"
		}
		fmt.Fprintf(&b, "func _Cfunc_%s(%s)%s { return }\n", name, strings.Join(params, ", "), res)
	}
	return b.String()
}
