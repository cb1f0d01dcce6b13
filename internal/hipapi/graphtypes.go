package hipapi

// AllocNodeParamsTypes are the C type names of an alloc node's parameter
// struct in the three APIs (and the struct tags cgo may spell them as): its
// dptr field is the graph allocation the node makes.
var AllocNodeParamsTypes = []string{
	"hipMemAllocNodeParams", "struct_hipMemAllocNodeParams",
	"cudaMemAllocNodeParams", "struct_cudaMemAllocNodeParams",
	"CUDA_MEM_ALLOC_NODE_PARAMS", "struct_CUDA_MEM_ALLOC_NODE_PARAMS_st",
}
