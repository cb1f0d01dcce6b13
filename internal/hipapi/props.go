package hipapi

import "strings"

// PropType is a device property struct's C type name (as cgo names it) and
// the family whose hipGetDeviceProperties / cudaGetDeviceProperties fills
// it.
type PropType struct {
	Name   string
	Family Family
}

// PropTypes are the device property structs.
var PropTypes = []PropType{
	{"hipDeviceProp_t", HIP},
	{"struct_hipDeviceProp_t", HIP},
	{"struct_cudaDeviceProp", CUDARuntime},
}

// PropFields are the device property fields that report how the device
// reaches host memory, with the role of the attribute that reports the
// same (PageableAttr: XNACK and its CUDA analogue; ManagedAttr: managed
// memory support).
var PropFields = map[string]ConstRole{
	"pageableMemoryAccess":    PageableAttr,
	"managedMemory":           ManagedAttr,
	"concurrentManagedAccess": ManagedAttr,
}

// InitializesRuntime reports whether calling the C function name
// initializes the HIP runtime (ROCr, which reads HSA_XNACK then): every HIP
// runtime function does; hiprtc compiles kernels on the host and does not.
func InitializesRuntime(name string) bool {
	return strings.HasPrefix(name, "hip") && !strings.HasPrefix(name, "hiprtc")
}
