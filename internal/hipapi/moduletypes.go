package hipapi

var (
	// ModuleTypes are the C type names of loaded-module handles in the
	// three APIs: what a ModuleLoad writes and a ModuleUnload takes (CUDA's
	// libraries, cuLibraryLoad* and cudaLibraryLoad*, are modules too).
	ModuleTypes = []string{"hipModule_t", "CUmodule", "CUlibrary", "cudaLibrary_t"}
	// StatusTypes are the C type names of the status every runtime call
	// returns; the zero value is success.
	StatusTypes = []string{"hipError_t", "cudaError_t", "CUresult"}
)
