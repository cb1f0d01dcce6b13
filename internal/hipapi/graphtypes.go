package hipapi

// AllocNodeParamsTypes are the C type names of an alloc node's parameter
// struct in the three APIs (and the struct tags cgo may spell them as): its
// dptr field is the graph allocation the node makes.
var AllocNodeParamsTypes = []string{
	"hipMemAllocNodeParams", "struct_hipMemAllocNodeParams",
	"cudaMemAllocNodeParams", "struct_cudaMemAllocNodeParams",
	"CUDA_MEM_ALLOC_NODE_PARAMS", "struct_CUDA_MEM_ALLOC_NODE_PARAMS_st",
}

// FirstFamily returns the first of fs that is known, HIP when none is:
// the family a message names twins in (the call's own, else the memory's).
func FirstFamily(fs ...Family) Family {
	for _, f := range fs {
		if f != 0 {
			return f
		}
	}
	return HIP
}

// KernelNodeArgsField is the field of a kernel node's parameter struct
// (hipKernelNodeParams, cudaKernelNodeParams, CUDA_KERNEL_NODE_PARAMS) that
// holds the kernel argument array (void**): the memory the kernel uses is
// what its entries point at.
const KernelNodeArgsField = "kernelParams"
