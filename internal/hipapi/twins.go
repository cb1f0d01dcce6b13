package hipapi

// twins names each runtime function, and the status codes messages mention,
// in the three APIs: HIP runtime, CUDA runtime, CUDA driver. Analyzers word
// their messages and fixes in the family of the code they report on, so
// they ask Twin rather than spelling the names themselves.
var twins = [][3]string{
	{"hipDeviceSynchronize", "cudaDeviceSynchronize", "cuCtxSynchronize"},
	{"hipStreamSynchronize", "cudaStreamSynchronize", "cuStreamSynchronize"},
	{"hipEventSynchronize", "cudaEventSynchronize", "cuEventSynchronize"},
	{"hipFree", "cudaFree", "cuMemFree"},
	{"hipHostFree", "cudaFreeHost", "cuMemFreeHost"},
	{"hipFreeAsync", "cudaFreeAsync", "cuMemFreeAsync"},
	{"hipMallocAsync", "cudaMallocAsync", "cuMemAllocAsync"},
	{"hipGraphAddMemAllocNode", "cudaGraphAddMemAllocNode", "cuGraphAddMemAllocNode"},
	{"hipGraphAddMemFreeNode", "cudaGraphAddMemFreeNode", "cuGraphAddMemFreeNode"},
	{"hipStreamBeginCapture", "cudaStreamBeginCapture", "cuStreamBeginCapture"},
	{"hipModuleUnload", "", "cuModuleUnload"},
	{"hipErrorInvalidValue", "cudaErrorInvalidValue", "CUDA_ERROR_INVALID_VALUE"},
}

var twinsByHIP = func() map[string][3]string {
	m := make(map[string][3]string, len(twins))
	for _, t := range twins {
		m[t[0]] = t
	}
	return m
}()

// Twin returns the name in family f of the HIP runtime name hip: the name
// itself for the HIP runtime, or where f has no twin of it.
func Twin(hip string, f Family) string {
	t, ok := twinsByHIP[hip]
	if !ok {
		return hip
	}
	var name string
	switch f {
	case CUDARuntime:
		name = t[1]
	case CUDADriver:
		name = t[2]
	default:
		name = t[0]
	}
	if name == "" {
		return hip
	}
	return name
}

// StreamTypes are the C type names of stream handles in the three APIs;
// StreamStructs the struct types those handles point to, which cgo spells a
// C function's stream parameter as (a pointer to one).
var (
	StreamTypes   = []string{"hipStream_t", "cudaStream_t", "CUstream"}
	StreamStructs = []string{"struct_ihipStream_t", "struct_CUstream_st"}
	// DevicePtrTypes are the C type names of device pointers.
	DevicePtrTypes = []string{"CUdeviceptr", "hipDeviceptr_t"}
)
