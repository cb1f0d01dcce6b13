package hipapi

import (
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
)

// These tests hold the fallback headers (testdata/include, which hiplint
// hands to cgo when a machine has no GPU SDK) to what real Go GPU code needs
// from them: each header compiles alone as C, declares the names such code
// uses, lays its structs out as the real headers do, and, where Debian's
// HIP headers are installed, declares every function they share with a
// compatible prototype.

// fallbackHeaders are the headers code includes, as it includes them.
var fallbackHeaders = []string{
	"hip/hip_runtime.h",
	"hip/hip_runtime_api.h",
	"hip/hip_version.h",
	"hip/hip_ext.h",
	"hip/driver_types.h",
	"hip/texture_types.h",
	"hip/surface_types.h",
	"hip/hip_common.h",
	"hip/hip_deprecated.h",
	"hip/hip_texture_types.h",
	"hip/library_types.h",
	"cuda.h",
	"cuda_runtime.h",
	"cuda_runtime_api.h",
	"driver_types.h",
	"vector_types.h",
	"builtin_types.h",
	"device_types.h",
	"surface_types.h",
	"texture_types.h",
	"library_types.h",
	"driver_functions.h",
	"cuda_profiler_api.h",
	"cudaProfiler.h",
}

func cCompiler(t *testing.T) string {
	t.Helper()
	cc := os.Getenv("CC")
	if cc == "" {
		cc = "cc"
	}
	if _, err := exec.LookPath(cc); err != nil {
		t.Skipf("no C compiler (%s) to compile the headers", cc)
	}
	return cc
}

// compileC compiles src as C with the fallback headers on the include path
// (unless includeFixture is false) and returns the compiler's output.
func compileC(t *testing.T, src string, includeFixture bool, extra ...string) (string, error) {
	t.Helper()
	args := []string{"-fsyntax-only", "-x", "c"}
	if includeFixture {
		args = append(args, "-I", fixtureDir)
	}
	args = append(append(args, extra...), "-")
	cmd := exec.Command(cCompiler(t), args...)
	cmd.Stdin = strings.NewReader(src)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// Each header compiles alone, twice in a row (include guards), as strict C99
// and as C11, with either HIP platform macro or none.
func TestFallbackHeadersCompileAlone(t *testing.T) {
	for _, h := range fallbackHeaders {
		for _, std := range []string{"-std=c99", "-std=gnu11"} {
			for _, def := range []string{"", "-D__HIP_PLATFORM_AMD__", "-D__HIP_PLATFORM_NVIDIA__", "-DCUDA_API_PER_THREAD_DEFAULT_STREAM"} {
				if std != "-std=c99" && def != "" {
					continue // the macros are checked once, in strict C99
				}
				src := fmt.Sprintf("#include <%s>\n#include <%s>\nint main(void) { return 0; }\n", h, h)
				args := []string{std, "-Wall", "-Wextra", "-Werror"}
				if def != "" {
					args = append(args, def)
				}
				out, err := compileC(t, src, true, args...)
				assert.NoError(t, err, "%s %v:\n%s", h, args, out)
			}
		}
	}
}

// A sample of the names public Go GPU code (mumax/3, gorgonia/cu,
// unixpickle/cuda, icicle, zerfoo, cudago) uses from each header: a missing
// name fails to compile. Functions and enumerators are used as values, types
// through sizeof, fields through offsetof, macros through #ifndef.
var commonNames = map[string]struct {
	funcs, values, types, macros []string
	fields                       map[string][]string
}{
	"hip/hip_runtime.h": {
		funcs: []string{"hipInit", "hipDriverGetVersion", "hipRuntimeGetVersion", "hipGetDeviceCount", "hipSetDevice",
			"hipGetDevice", "hipDeviceGet", "hipDeviceGetName", "hipDeviceGetAttribute", "hipDeviceTotalMem",
			"hipGetDeviceProperties", "hipDeviceSynchronize", "hipDeviceReset", "hipDeviceCanAccessPeer",
			"hipDeviceEnablePeerAccess", "hipDeviceDisablePeerAccess", "hipGetLastError", "hipPeekAtLastError",
			"hipGetErrorString", "hipGetErrorName", "hipCtxCreate", "hipCtxDestroy", "hipCtxSetCurrent",
			"hipDevicePrimaryCtxRetain", "hipMalloc", "hipMallocManaged", "hipHostMalloc", "hipMallocAsync",
			"hipFree", "hipHostFree", "hipFreeAsync", "hipHostRegister", "hipHostUnregister",
			"hipHostGetDevicePointer", "hipMemGetInfo", "hipPointerGetAttributes", "hipMemset", "hipMemsetAsync",
			"hipMemsetD8", "hipMemsetD16", "hipMemsetD32", "hipMemsetD32Async", "hipMemcpy", "hipMemcpyAsync",
			"hipMemcpyHtoD", "hipMemcpyDtoH", "hipMemcpyDtoD", "hipMemcpyHtoDAsync", "hipMemcpyDtoHAsync",
			"hipMemcpyPeer", "hipMemcpy2D", "hipMemcpy2DAsync", "hipMemcpyParam2D", "hipMemcpy3D",
			"hipDrvMemcpy3D", "hipMemcpyToSymbol", "hipMemPoolCreate", "hipMemPoolDestroy",
			"hipDeviceGetDefaultMemPool", "hipMemPoolSetAttribute", "hipMemPoolTrimTo", "hipMallocFromPoolAsync",
			"hipMemAdvise", "hipMemPrefetchAsync", "hipStreamCreate", "hipStreamCreateWithFlags",
			"hipStreamCreateWithPriority", "hipStreamDestroy", "hipStreamSynchronize", "hipStreamQuery",
			"hipStreamWaitEvent", "hipStreamAddCallback", "hipLaunchHostFunc", "hipEventCreate",
			"hipEventCreateWithFlags", "hipEventRecord", "hipEventSynchronize", "hipEventElapsedTime",
			"hipEventDestroy", "hipEventQuery", "hipModuleLoad", "hipModuleLoadData", "hipModuleLoadDataEx",
			"hipModuleUnload", "hipModuleGetFunction", "hipModuleGetGlobal", "hipModuleLaunchKernel",
			"hipLaunchKernel", "hipFuncGetAttribute", "hipFuncSetAttribute",
			"hipModuleOccupancyMaxPotentialBlockSize", "hipOccupancyMaxActiveBlocksPerMultiprocessor",
			"hipGraphCreate", "hipGraphDestroy", "hipGraphInstantiate", "hipGraphInstantiateWithFlags",
			"hipGraphLaunch", "hipGraphExecDestroy", "hipGraphGetNodes", "hipGraphGetRootNodes",
			"hipGraphNodeGetType", "hipGraphAddKernelNode", "hipGraphAddMemcpyNode1D", "hipGraphAddMemsetNode",
			"hipGraphAddMemAllocNode", "hipGraphAddMemFreeNode", "hipGraphAddDependencies",
			"hipGraphAddEmptyNode", "hipGraphExecUpdate", "hipStreamBeginCapture", "hipStreamEndCapture",
			"hipStreamIsCapturing", "hipStreamGetCaptureInfo", "hipExtModuleLaunchKernel",
			"hipExtMallocWithFlags", "hipLinkCreate", "hipLinkAddData", "hipLinkComplete", "hipLinkDestroy",
			"hipIpcGetMemHandle", "hipIpcOpenMemHandle", "hipProfilerStart", "hipProfilerStop",
			"hipMemAddressReserve", "hipMemCreate", "hipMemMap", "hipMemSetAccess", "hipMemRelease",
			"hipCreateTextureObject", "hipDestroyTextureObject", "hipExtLaunchKernel", "hipMemcpyDtoA",
			"hipGraphicsMapResources", "hipStreamGetCaptureInfo_v2", "hipGetDevicePropertiesR0600"},
		values: []string{"hipSuccess", "hipErrorInvalidValue", "hipErrorOutOfMemory", "hipErrorNotInitialized",
			"hipErrorInvalidDevice", "hipErrorNoDevice", "hipErrorNotReady", "hipErrorNotSupported",
			"hipErrorInvalidHandle", "hipErrorPeerAccessAlreadyEnabled", "hipErrorUnknown",
			"hipErrorIllegalAddress", "hipErrorLaunchFailure", "hipErrorStreamCaptureInvalidated",
			"hipMemcpyHostToDevice", "hipMemcpyDeviceToHost", "hipMemcpyDeviceToDevice", "hipMemcpyDefault",
			"hipDeviceAttributeComputeCapabilityMajor", "hipDeviceAttributeComputeCapabilityMinor",
			"hipDeviceAttributeMultiprocessorCount", "hipDeviceAttributeMaxThreadsPerBlock",
			"hipDeviceAttributeWarpSize", "hipDeviceAttributeMaxSharedMemoryPerBlock",
			"hipDeviceAttributeClockRate", "hipDeviceAttributeMemoryClockRate",
			"hipDeviceAttributeMemoryBusWidth", "hipDeviceAttributeL2CacheSize",
			"hipDeviceAttributeManagedMemory", "hipDeviceAttributeConcurrentManagedAccess",
			"hipDeviceAttributePageableMemoryAccess", "hipDeviceAttributeMaxBlockDimX",
			"hipDeviceAttributeMaxGridDimX", "hipDeviceAttributePciBusId", "hipDeviceAttributeIntegrated",
			"hipMemoryTypeHost", "hipMemoryTypeDevice", "hipMemoryTypeManaged",
			"hipStreamCaptureModeGlobal", "hipStreamCaptureStatusActive", "hipGraphNodeTypeKernel",
			"hipGraphNodeTypeMemAlloc", "hipGraphNodeTypeMemFree", "hipMemPoolAttrReleaseThreshold",
			"hipMemAllocationTypePinned", "hipMemLocationTypeDevice", "hipMemAccessFlagsProtReadWrite",
			"hipJitOptionErrorLogBuffer", "hipJitInputLLVMBitcode", "hipFuncAttributeMaxDynamicSharedMemorySize",
			"HIP_FUNC_ATTRIBUTE_NUM_REGS", "hipLimitMallocHeapSize", "hipFuncCachePreferShared",
			"hipGraphExecUpdateSuccess", "hipGraphInstantiateFlagAutoFreeOnLaunch"},
		types: []string{"hipError_t", "hipDevice_t", "hipDeviceptr_t", "hipCtx_t", "hipModule_t", "hipFunction_t",
			"hipStream_t", "hipEvent_t", "hipGraph_t", "hipGraphNode_t", "hipGraphExec_t", "hipMemPool_t",
			"hipDeviceProp_t", "hipDeviceAttribute_t", "hipMemcpyKind", "hipMemoryType", "hipPointerAttribute_t",
			"hipKernelNodeParams", "hipMemsetParams", "hipMemAllocNodeParams", "hipMemPoolProps",
			"hipMemAccessDesc", "hipMemcpy3DParms", "hip_Memcpy2D", "HIP_MEMCPY3D", "hipPitchedPtr", "hipExtent",
			"hipLinkState_t", "hipJitOption", "hipIpcMemHandle_t", "dim3", "hipUUID", "hipFuncAttributes",
			"hipStreamCallback_t", "hipHostFn_t", "hipArray_t", "hipMemGenericAllocationHandle_t",
			"hipMemAllocationProp", "uintptr_t", "uint32_t", "uint64_t", "size_t"},
		macros: []string{"HIP_VERSION", "HIP_VERSION_MAJOR", "HIP_VERSION_MINOR", "HIP_VERSION_PATCH",
			"HIP_LAUNCH_PARAM_BUFFER_POINTER", "HIP_LAUNCH_PARAM_BUFFER_SIZE", "HIP_LAUNCH_PARAM_END",
			"hipStreamNonBlocking", "hipStreamPerThread", "hipEventDisableTiming", "hipEventBlockingSync",
			"hipHostMallocDefault", "hipHostMallocMapped", "hipHostRegisterMapped", "hipMemAttachGlobal",
			"hipDeviceScheduleBlockingSync", "hipDeviceMallocFinegrained", "hipCpuDeviceId"},
		fields: map[string][]string{
			"hipDeviceProp_t": {"name", "totalGlobalMem", "sharedMemPerBlock", "warpSize", "maxThreadsPerBlock",
				"maxThreadsDim", "maxGridSize", "clockRate", "major", "minor", "multiProcessorCount",
				"l2CacheSize", "managedMemory", "concurrentManagedAccess", "pageableMemoryAccess",
				"pciBusID", "gcnArchName", "maxSharedMemoryPerMultiProcessor", "isLargeBar"},
			"hipKernelNodeParams":   {"blockDim", "extra", "func", "gridDim", "kernelParams", "sharedMemBytes"},
			"hipMemAllocNodeParams": {"poolProps", "accessDescs", "accessDescCount", "bytesize", "dptr"},
			"HIP_MEMCPY3D":          {"srcXInBytes", "srcMemoryType", "srcDevice", "dstHost", "WidthInBytes", "Depth"},
			"hipPointerAttribute_t": {"type", "device", "devicePointer", "hostPointer", "isManaged"},
		},
	},
	"cuda.h": {
		funcs: []string{"cuInit", "cuDriverGetVersion", "cuGetErrorName", "cuGetErrorString", "cuDeviceGet",
			"cuDeviceGetCount", "cuDeviceGetName", "cuDeviceGetAttribute", "cuDeviceTotalMem",
			"cuDeviceComputeCapability", "cuDeviceGetUuid", "cuDeviceCanAccessPeer", "cuDevicePrimaryCtxRetain",
			"cuDevicePrimaryCtxRelease", "cuDevicePrimaryCtxReset", "cuCtxCreate", "cuCtxDestroy",
			"cuCtxGetCurrent", "cuCtxSetCurrent", "cuCtxPushCurrent", "cuCtxPopCurrent", "cuCtxSynchronize",
			"cuCtxGetDevice", "cuCtxGetApiVersion", "cuCtxSetCacheConfig", "cuCtxGetLimit", "cuCtxSetLimit",
			"cuCtxEnablePeerAccess", "cuCtxDisablePeerAccess", "cuModuleLoad", "cuModuleLoadData",
			"cuModuleLoadDataEx", "cuModuleLoadFatBinary", "cuModuleUnload", "cuModuleGetFunction",
			"cuModuleGetGlobal", "cuLinkCreate", "cuLinkAddData", "cuLinkAddFile", "cuLinkComplete",
			"cuLinkDestroy", "cuMemGetInfo", "cuMemAlloc", "cuMemAllocPitch", "cuMemAllocManaged",
			"cuMemAllocHost", "cuMemHostAlloc", "cuMemHostRegister", "cuMemHostUnregister",
			"cuMemHostGetDevicePointer", "cuMemFree", "cuMemFreeHost", "cuMemAllocAsync", "cuMemFreeAsync",
			"cuMemcpy", "cuMemcpyAsync", "cuMemcpyHtoD", "cuMemcpyDtoH", "cuMemcpyDtoD", "cuMemcpyHtoDAsync",
			"cuMemcpyDtoHAsync", "cuMemcpyDtoDAsync", "cuMemcpyPeer", "cuMemcpy2D", "cuMemcpy2DAsync",
			"cuMemcpy3D", "cuMemcpy3DAsync", "cuMemsetD8", "cuMemsetD16", "cuMemsetD32", "cuMemsetD32Async",
			"cuMemGetAddressRange", "cuPointerGetAttribute", "cuMemAdvise", "cuMemPrefetchAsync",
			"cuStreamCreate", "cuStreamCreateWithPriority", "cuStreamDestroy", "cuStreamSynchronize",
			"cuStreamQuery", "cuStreamWaitEvent", "cuStreamAddCallback", "cuLaunchHostFunc", "cuEventCreate",
			"cuEventRecord", "cuEventSynchronize", "cuEventQuery", "cuEventElapsedTime", "cuEventDestroy",
			"cuFuncGetAttribute", "cuFuncSetAttribute", "cuFuncSetCacheConfig", "cuLaunchKernel",
			"cuLaunchCooperativeKernel", "cuOccupancyMaxActiveBlocksPerMultiprocessor",
			"cuOccupancyMaxPotentialBlockSize", "cuGraphCreate", "cuGraphDestroy", "cuGraphInstantiate",
			"cuGraphLaunch", "cuGraphExecDestroy", "cuGraphGetNodes", "cuGraphAddKernelNode",
			"cuGraphAddMemcpyNode", "cuGraphAddMemsetNode", "cuGraphAddMemAllocNode", "cuGraphAddMemFreeNode",
			"cuGraphAddDependencies", "cuStreamBeginCapture", "cuStreamEndCapture", "cuMemPoolCreate",
			"cuMemPoolDestroy", "cuDeviceGetDefaultMemPool", "cuMemAddressReserve", "cuMemCreate", "cuMemMap",
			"cuMemSetAccess", "cuMemRelease", "cuMemUnmap", "cuMemAddressFree", "cuProfilerStart",
			"cuProfilerStop", "cuIpcGetMemHandle", "cuIpcOpenMemHandle", "cuLibraryLoadData", "cuLibraryUnload",
			"cuLaunchKernelEx", "cuCtxCreate_v3", "cuFuncGetParamInfo", "cuKernelGetName", "cuMulticastCreate",
			"cuTexRefSetAddress", "cuTexRefSetArray", "cuSurfRefSetArray", "cuFuncSetBlockShape", "cuParamSetv",
			"cuLaunchGrid", "cuMemcpy3DPeer", "cuPointerGetAttributes"},
		values: []string{"CUDA_SUCCESS", "CUDA_ERROR_INVALID_VALUE", "CUDA_ERROR_OUT_OF_MEMORY",
			"CUDA_ERROR_NOT_INITIALIZED", "CUDA_ERROR_DEINITIALIZED", "CUDA_ERROR_NO_DEVICE",
			"CUDA_ERROR_INVALID_DEVICE", "CUDA_ERROR_INVALID_IMAGE", "CUDA_ERROR_INVALID_CONTEXT",
			"CUDA_ERROR_INVALID_PTX", "CUDA_ERROR_INVALID_HANDLE", "CUDA_ERROR_NOT_FOUND",
			"CUDA_ERROR_NOT_READY", "CUDA_ERROR_ILLEGAL_ADDRESS", "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES",
			"CUDA_ERROR_LAUNCH_TIMEOUT", "CUDA_ERROR_LAUNCH_FAILED", "CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED",
			"CUDA_ERROR_NOT_SUPPORTED", "CUDA_ERROR_UNKNOWN", "CUDA_ERROR_NO_BINARY_FOR_GPU",
			"CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK", "CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X",
			"CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X", "CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK",
			"CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY", "CU_DEVICE_ATTRIBUTE_WARP_SIZE",
			"CU_DEVICE_ATTRIBUTE_CLOCK_RATE", "CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT",
			"CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR", "CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR",
			"CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING", "CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE",
			"CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH", "CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE",
			"CU_DEVICE_ATTRIBUTE_CONCURRENT_KERNELS", "CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY",
			"CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT", "CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN",
			"CU_CTX_SCHED_AUTO", "CU_CTX_SCHED_BLOCKING_SYNC", "CU_CTX_MAP_HOST", "CU_MEMORYTYPE_DEVICE",
			"CU_MEMORYTYPE_HOST", "CU_JIT_INFO_LOG_BUFFER", "CU_JIT_ERROR_LOG_BUFFER", "CU_JIT_INPUT_PTX",
			"CU_JIT_INPUT_CUBIN", "CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK", "CU_FUNC_ATTRIBUTE_NUM_REGS",
			"CU_FUNC_CACHE_PREFER_SHARED", "CU_LIMIT_MALLOC_HEAP_SIZE", "CU_POINTER_ATTRIBUTE_MEMORY_TYPE",
			"CU_EVENT_DISABLE_TIMING", "CU_STREAM_NON_BLOCKING", "CU_MEM_ATTACH_GLOBAL",
			"CU_GRAPH_NODE_TYPE_KERNEL", "CU_STREAM_CAPTURE_MODE_GLOBAL", "CU_MEM_ALLOCATION_TYPE_PINNED",
			"CU_MEM_LOCATION_TYPE_DEVICE", "CU_MEM_ACCESS_FLAGS_PROT_READWRITE", "CU_AD_FORMAT_FLOAT",
			"CU_TARGET_COMPUTE_35", "CU_JIT_CACHE_OPTION_CA", "CU_TR_ADDRESS_MODE_CLAMP", "CU_TR_FILTER_MODE_LINEAR",
			"CU_LAUNCH_ATTRIBUTE_COOPERATIVE", "CU_EXEC_AFFINITY_TYPE_SM_COUNT",
			"CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_ARRAY_WIDTH"},
		types: []string{"CUresult", "CUdevice", "CUdeviceptr", "CUcontext", "CUmodule", "CUfunction", "CUstream",
			"CUevent", "CUgraph", "CUgraphNode", "CUgraphExec", "CUmemoryPool", "CUarray", "CUlinkState",
			"CUjit_option", "CUjitInputType", "CUdevice_attribute", "CUfunction_attribute", "CUmemorytype",
			"CUDA_MEMCPY2D", "CUDA_MEMCPY3D", "CUDA_KERNEL_NODE_PARAMS", "CUDA_MEMSET_NODE_PARAMS",
			"CUDA_MEM_ALLOC_NODE_PARAMS", "CUDA_ARRAY_DESCRIPTOR", "CUDA_ARRAY3D_DESCRIPTOR", "CUuuid",
			"CUipcMemHandle", "CUmemGenericAllocationHandle", "CUmemAllocationProp", "CUstreamCallback",
			"CUhostFn", "cuuint32_t", "cuuint64_t", "CUlaunchConfig", "CUlaunchAttribute", "CUexecAffinityParam",
			"CUtexref", "CUaddress_mode", "CUfilter_mode", "CUjit_target", "uintptr_t", "uint32_t", "size_t"},
		macros: []string{"CUDA_VERSION", "CU_LAUNCH_PARAM_BUFFER_POINTER", "CU_LAUNCH_PARAM_BUFFER_SIZE",
			"CU_LAUNCH_PARAM_END", "CU_MEMHOSTALLOC_PORTABLE", "CU_MEMHOSTALLOC_DEVICEMAP",
			"CU_MEMHOSTREGISTER_DEVICEMAP", "CU_STREAM_LEGACY", "CU_STREAM_PER_THREAD", "CU_IPC_HANDLE_SIZE"},
		fields: map[string][]string{
			"CUDA_MEMCPY2D": {"srcXInBytes", "srcY", "srcMemoryType", "srcHost", "srcDevice", "srcArray", "srcPitch",
				"dstXInBytes", "dstY", "dstMemoryType", "dstHost", "dstDevice", "dstArray", "dstPitch",
				"WidthInBytes", "Height"},
			"CUDA_MEMCPY3D": {"srcXInBytes", "srcY", "srcZ", "srcLOD", "srcMemoryType", "srcHost", "srcDevice",
				"srcArray", "reserved0", "srcPitch", "srcHeight", "dstXInBytes", "dstY", "dstZ", "dstLOD",
				"dstMemoryType", "dstHost", "dstDevice", "dstArray", "reserved1", "dstPitch", "dstHeight",
				"WidthInBytes", "Height", "Depth"},
			"CUDA_KERNEL_NODE_PARAMS": {"func", "gridDimX", "blockDimX", "sharedMemBytes", "kernelParams", "extra"},
		},
	},
	"cuda_runtime.h": {
		funcs: []string{"cudaGetDeviceCount", "cudaSetDevice", "cudaGetDevice", "cudaGetDeviceProperties",
			"cudaDeviceGetAttribute", "cudaDeviceSynchronize", "cudaDeviceReset", "cudaDeviceCanAccessPeer",
			"cudaDeviceEnablePeerAccess", "cudaDeviceSetLimit", "cudaDeviceGetLimit", "cudaSetDeviceFlags",
			"cudaDriverGetVersion", "cudaRuntimeGetVersion", "cudaGetLastError", "cudaPeekAtLastError",
			"cudaGetErrorString", "cudaGetErrorName", "cudaMalloc", "cudaMallocManaged", "cudaMallocHost",
			"cudaHostAlloc", "cudaMallocPitch", "cudaMalloc3D", "cudaMallocAsync", "cudaFree", "cudaFreeHost",
			"cudaFreeAsync", "cudaHostRegister", "cudaHostUnregister", "cudaHostGetDevicePointer",
			"cudaMemGetInfo", "cudaPointerGetAttributes", "cudaMemset", "cudaMemsetAsync", "cudaMemset2D",
			"cudaMemcpy", "cudaMemcpyAsync", "cudaMemcpy2D", "cudaMemcpy2DAsync", "cudaMemcpy3D",
			"cudaMemcpyPeer", "cudaMemcpyToSymbol", "cudaMemcpyFromSymbol", "cudaMemAdvise",
			"cudaMemPrefetchAsync", "cudaMemPoolCreate", "cudaDeviceGetDefaultMemPool", "cudaMemPoolSetAttribute",
			"cudaStreamCreate", "cudaStreamCreateWithFlags", "cudaStreamCreateWithPriority", "cudaStreamDestroy",
			"cudaStreamSynchronize", "cudaStreamQuery", "cudaStreamWaitEvent", "cudaStreamAddCallback",
			"cudaLaunchHostFunc", "cudaEventCreate", "cudaEventCreateWithFlags", "cudaEventRecord",
			"cudaEventSynchronize", "cudaEventElapsedTime", "cudaEventDestroy", "cudaEventQuery",
			"cudaLaunchKernel", "cudaFuncGetAttributes", "cudaFuncSetAttribute",
			"cudaOccupancyMaxActiveBlocksPerMultiprocessor", "cudaGraphCreate", "cudaGraphDestroy",
			"cudaGraphInstantiate", "cudaGraphLaunch", "cudaGraphExecDestroy", "cudaGraphGetNodes",
			"cudaGraphAddKernelNode", "cudaGraphAddMemcpyNode", "cudaGraphAddMemAllocNode",
			"cudaGraphAddMemFreeNode", "cudaStreamBeginCapture", "cudaStreamEndCapture",
			"cudaStreamIsCapturing", "cudaIpcGetMemHandle", "cudaIpcOpenMemHandle", "cudaProfilerStart",
			"cudaProfilerStop", "cudaGraphExecUpdate", "cudaLaunchKernelExC", "cudaCreateTextureObject",
			"cudaDestroyTextureObject", "cudaGraphicsMapResources", "cudaMemcpy2DToArray", "cudaMallocArray"},
		values: []string{"cudaSuccess", "cudaErrorInvalidValue", "cudaErrorMemoryAllocation",
			"cudaErrorInitializationError", "cudaErrorInvalidDevice", "cudaErrorNoDevice", "cudaErrorNotReady",
			"cudaErrorPeerAccessAlreadyEnabled", "cudaErrorIllegalAddress", "cudaErrorLaunchFailure",
			"cudaErrorNotSupported", "cudaErrorUnknown", "cudaErrorInvalidResourceHandle",
			"cudaMemcpyHostToDevice", "cudaMemcpyDeviceToHost", "cudaMemcpyDeviceToDevice", "cudaMemcpyDefault",
			"cudaDevAttrMaxThreadsPerBlock", "cudaDevAttrMaxBlockDimX", "cudaDevAttrMaxGridDimX",
			"cudaDevAttrMaxSharedMemoryPerBlock", "cudaDevAttrWarpSize", "cudaDevAttrClockRate",
			"cudaDevAttrMultiProcessorCount", "cudaDevAttrComputeCapabilityMajor",
			"cudaDevAttrComputeCapabilityMinor", "cudaDevAttrManagedMemory", "cudaDevAttrConcurrentManagedAccess",
			"cudaDevAttrPageableMemoryAccess", "cudaDevAttrL2CacheSize", "cudaDevAttrMaxSharedMemoryPerBlockOptin",
			"cudaMemoryTypeDevice", "cudaMemoryTypeHost", "cudaMemoryTypeManaged", "cudaFuncAttributeMaxDynamicSharedMemorySize",
			"cudaLimitMallocHeapSize", "cudaStreamCaptureModeGlobal", "cudaStreamCaptureStatusActive",
			"cudaGraphNodeTypeKernel", "cudaMemPoolAttrReleaseThreshold"},
		types: []string{"cudaError_t", "cudaStream_t", "cudaEvent_t", "cudaGraph_t", "cudaGraphNode_t",
			"cudaGraphExec_t", "cudaMemPool_t", "cudaArray_t", "struct cudaDeviceProp", "enum cudaMemcpyKind",
			"enum cudaDeviceAttr", "struct cudaPointerAttributes", "struct cudaFuncAttributes",
			"struct cudaKernelNodeParams", "struct cudaMemsetParams", "struct cudaMemAllocNodeParams",
			"struct cudaMemcpy3DParms", "struct cudaPitchedPtr", "struct cudaExtent", "cudaIpcMemHandle_t",
			"cudaStreamCallback_t", "cudaHostFn_t", "dim3", "uintptr_t", "size_t"},
		macros: []string{"CUDART_VERSION", "cudaStreamNonBlocking", "cudaStreamPerThread", "cudaStreamLegacy",
			"cudaEventDisableTiming", "cudaEventBlockingSync", "cudaHostAllocDefault", "cudaHostAllocMapped",
			"cudaHostRegisterDefault", "cudaHostRegisterMapped", "cudaMemAttachGlobal",
			"cudaDeviceScheduleBlockingSync", "cudaDeviceMapHost", "cudaCpuDeviceId"},
		fields: map[string][]string{
			"struct cudaDeviceProp": {"name", "uuid", "totalGlobalMem", "sharedMemPerBlock", "regsPerBlock",
				"warpSize", "maxThreadsPerBlock", "maxThreadsDim", "maxGridSize", "clockRate", "totalConstMem",
				"major", "minor", "multiProcessorCount", "memoryClockRate", "memoryBusWidth", "l2CacheSize",
				"managedMemory", "concurrentManagedAccess", "pageableMemoryAccess", "sharedMemPerBlockOptin"},
			"struct cudaPointerAttributes": {"type", "device", "devicePointer", "hostPointer"},
		},
	},
}

// The names above compile against the headers, together with the C library
// names cgo code takes from them (C.free, C.malloc, uintptr_t, and C.memcpy
// where the real header includes <string.h>).
func TestFallbackHeadersDeclareCommonNames(t *testing.T) {
	headers := make([]string, 0, len(commonNames))
	for h := range commonNames {
		headers = append(headers, h)
	}
	sort.Strings(headers)
	for _, h := range headers {
		t.Run(h, func(t *testing.T) {
			names := commonNames[h]
			var b strings.Builder
			fmt.Fprintf(&b, "#include <%s>\n", h)
			for _, m := range names.macros {
				fmt.Fprintf(&b, "#ifndef %s\n#error macro %s is not defined\n#endif\n", m, m)
			}
			b.WriteString("void hiplint_use(void) {\n")
			b.WriteString("  void* p = malloc(4); free(p);\n")
			if h != "cuda.h" { // the real cuda.h does not include <string.h>
				b.WriteString("  memcpy(p, p, 0); (void)strlen(\"\");\n")
			}
			b.WriteString("  uintptr_t u = (uintptr_t)p; uint32_t w = (uint32_t)u; int64_t l = w; (void)l;\n")
			for _, f := range names.funcs {
				fmt.Fprintf(&b, "  (void)%s;\n", f)
			}
			for _, v := range names.values {
				fmt.Fprintf(&b, "  { long long v = (long long)%s; (void)v; }\n", v)
			}
			for _, ty := range names.types {
				fmt.Fprintf(&b, "  (void)sizeof(%s);\n", ty)
			}
			for ty, fields := range names.fields {
				for _, f := range fields {
					fmt.Fprintf(&b, "  (void)offsetof(%s, %s);\n", ty, f)
				}
			}
			b.WriteString("}\n")
			out, err := compileC(t, b.String(), true, "-std=c99", "-Wall", "-Werror", "-Wno-unused-value")
			assert.NoError(t, err, "names missing from <%s>:\n%s", h, out)
		})
	}
}

// Struct layouts that code sets field by field, and the version macros code
// tests with #if: as in the real headers (HIP 6.2, CUDA 12.4, x86-64).
func TestFallbackHeaderLayouts(t *testing.T) {
	if strconv.IntSize != 64 {
		t.Skip("the offsets are those of a 64-bit target")
	}
	checks := map[string][]string{
		"hip/hip_runtime.h": {
			"HIP_VERSION == 60241134",
			"HIP_VERSION == HIP_VERSION_MAJOR * 10000000 + HIP_VERSION_MINOR * 100000 + HIP_VERSION_PATCH",
			"sizeof(hipDeviceProp_t) == 1472",
			"offsetof(hipDeviceProp_t, totalGlobalMem) == 288",
			"offsetof(hipDeviceProp_t, gcnArchName) == 1160",
			"sizeof(hipDeviceProp_tR0600) == sizeof(hipDeviceProp_t)",
			"sizeof(HIP_MEMCPY3D) == 184",
			"sizeof(hip_Memcpy2D) == 128",
			"sizeof(hipMemPoolProps) == 88",
			"offsetof(hipMemAllocNodeParams, dptr) == 112",
			"sizeof(hipKernelNodeParams) == 64",
			"sizeof(hipIpcMemHandle_t) == 64",
			"sizeof(hipPointerAttribute_t) == 32",
			"sizeof(dim3) == 12",
		},
		"cuda.h": {
			"CUDA_VERSION == 12090",
			"sizeof(CUDA_MEMCPY3D) == 200",
			"offsetof(CUDA_MEMCPY3D, reserved0) == 64",
			"offsetof(CUDA_MEMCPY3D, reserved1) == 152",
			"sizeof(CUDA_MEMCPY2D) == 128",
			"sizeof(CUDA_KERNEL_NODE_PARAMS) == 72",
			"sizeof(CUDA_MEM_ALLOC_NODE_PARAMS) == 120",
			"sizeof(CUmemPoolProps) == 88",
			"sizeof(CUipcMemHandle) == 64",
			"sizeof(CUdeviceptr) == 8",
		},
		"cuda_runtime.h": {
			"CUDART_VERSION == 12090",
			"sizeof(struct cudaDeviceProp) == 1032",
			"offsetof(struct cudaDeviceProp, totalGlobalMem) == 288",
			"sizeof(struct cudaPointerAttributes) == 24",
			"sizeof(struct cudaMemcpy3DParms) == 160",
			"sizeof(struct cudaKernelNodeParams) == 56",
			"sizeof(struct cudaFuncAttributes) == 144",
		},
	}
	for h, exprs := range checks {
		var b strings.Builder
		fmt.Fprintf(&b, "#include <stddef.h>\n#include <%s>\n", h)
		for i, e := range exprs {
			fmt.Fprintf(&b, "#line %d \"layout\"\n_Static_assert(%s, \"check %d\");\n", i+1, e, i)
		}
		out, err := compileC(t, b.String(), true, "-std=c11")
		if err != nil {
			for _, line := range strings.Split(out, "\n") {
				if m := regexp.MustCompile(`^layout:(\d+):`).FindStringSubmatch(line); m != nil {
					i, _ := strconv.Atoi(m[1])
					t.Errorf("<%s>: %s does not hold: %s", h, exprs[i-1], line)
				}
			}
			require.NoError(t, err, "<%s>:\n%s", h, out)
		}
	}
}

// Where Debian's libamdhip64-dev (HIP 5.2.3) is installed: every function the
// fixture and the real headers both declare has a compatible prototype. The
// fixture's prototypes are compiled as redeclarations after the real
// headers, so the C compiler itself compares them.
func TestHIPPrototypesMatchRealHeaders(t *testing.T) {
	real := realHIP(t)
	fixture := fixtureFamily(t, HIP)
	var names []string
	for name := range fixture.protos {
		if len(real.protos[name]) > 0 {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	require.Greater(t, len(names), 200, "too few functions in common with the real headers")

	var b strings.Builder
	b.WriteString("#define __HIP_PLATFORM_AMD__ 1\n#include <hip/hip_runtime_api.h>\n") // hip_ext.h is C++ only
	for i, name := range names {
		p := fixture.protos[name][0]
		var params []string
		for _, q := range p.Params {
			params = append(params, q.Raw)
		}
		if len(params) == 0 {
			params = []string{"void"}
		}
		fmt.Fprintf(&b, "#line %d \"fixture-prototypes\"\n%s %s(%s);\n", i+1, p.Ret, p.Name, strings.Join(params, ", "))
	}
	out, err := compileC(t, b.String(), false, "-std=gnu11", "-fmax-errors=0")
	failed := map[string][]string{}
	lineRE := regexp.MustCompile(`^fixture-prototypes:(\d+):\d+: error: (.*)`)
	for _, line := range strings.Split(out, "\n") {
		if m := lineRE.FindStringSubmatch(line); m != nil {
			i, _ := strconv.Atoi(m[1])
			failed[names[i-1]] = append(failed[names[i-1]], m[2])
		}
	}
	if err != nil && len(failed) == 0 {
		t.Fatalf("the real headers and the fixture prototypes do not compile:\n%s", out)
	}
	for _, name := range names {
		why, known := hipChangedSince523["proto:"+name]
		msgs, bad := failed[name]
		switch {
		case bad && known:
			t.Logf("%s differs from HIP 5.2.3 (%s): %s", name, why, msgs[0])
		case bad:
			t.Errorf("%s: the fixture's prototype conflicts with the real one:\n\tfixture: %s\n\treal:    %s\n\t%s",
				name, fixture.protos[name][0], real.protos[name][0], strings.Join(msgs, "\n\t"))
		case known:
			t.Errorf("hipChangedSince523[%q]: the prototypes agree, drop the entry", "proto:"+name)
		}
	}
	t.Logf("%d prototypes compared with the real headers", len(names))
}

// cgo itself builds code against the headers: the smoke packages in
// testdata/src/headers use, through cgo, the names and struct fields public
// Go GPU code uses (including the anonymous unions, bit-fields and pointer
// macros cgo has to translate), and go vet type-checks them. The headers'
// hash goes into CGO_CFLAGS, since Go's build cache does not key cgo output on
// header contents.
func TestCgoSmoke(t *testing.T) {
	cCompiler(t)
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to run cgo")
	}
	inc, err := filepath.Abs(fixtureDir)
	require.NoError(t, err)
	h := sha256.New()
	require.NoError(t, filepath.WalkDir(inc, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		fmt.Fprintf(h, "%s %d\n", path, len(data))
		h.Write(data)
		return err
	}))
	cmd := exec.Command(goTool, "vet", "./testdata/src/headers/...")
	cmd.Dir = filepath.Join("..", "..")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=1",
		fmt.Sprintf("CGO_CFLAGS=-I%s -DHIPLINT_HEADERS_HASH=%x", inc, h.Sum(nil)[:8]))
	out, err := cmd.CombinedOutput()
	assert.NoError(t, err, "go vet of the cgo smoke packages:\n%s", out)
}
