package hipapi

import "strings"

// Copy kind values. hipMemcpyKind and cudaMemcpyKind share them.
const (
	KindHostToHost     = 0
	KindHostToDevice   = 1
	KindDeviceToHost   = 2
	KindDeviceToDevice = 3
	KindDefault        = 4
)

// NonBlockingStream is the flag value that makes a created stream non-blocking
// (hipStreamNonBlocking, cudaStreamNonBlocking, CU_STREAM_NON_BLOCKING).
const NonBlockingStream = 1

// ConstRole is what a named runtime constant means to the checks.
type ConstRole uint8

const (
	NoConst         ConstRole = iota
	CopyKind                  // a hipMemcpyKind value; Value is one of the Kind* constants
	StreamFlag                // stream creation flag; Value is the flag bits
	PageableAttr              // the attribute that reports XNACK / HMM page access
	ManagedAttr               // attributes that do not report XNACK (ManagedMemory, ConcurrentManagedAccess)
	SuccessStatus             // hipSuccess, cudaSuccess, CUDA_SUCCESS
	NullStream                // the legacy default stream handle
	PerThreadStream           // the per-thread default stream handle
)

// Const describes one named constant.
type Const struct {
	Name  string
	Role  ConstRole
	Value int64 // the constant's C value (for stream handles, the handle's address)
}

// LookupConst finds a runtime constant by its C name.
func LookupConst(name string) (Const, bool) {
	c, ok := constants[name]
	return c, ok
}

// AttrByValue finds the device attribute of family fam that has value v,
// among the attributes the checks model (PageableAttr, ManagedAttr): for
// code that declares the runtime by hand and passes attributes as local
// macros (#define ATTR_PAGEABLE 65) or numbers instead of the enum names.
func AttrByValue(fam Family, v int64) (Const, bool) {
	for _, c := range constants {
		if (c.Role == PageableAttr || c.Role == ManagedAttr) && c.Value == v && constFamily(c.Name) == fam {
			return c, true
		}
	}
	return Const{}, false
}

// IsRuntimeName reports whether name is spelled like a runtime identifier
// (hip*, cuda*, cu*, CU_*), as enum constants from the real headers are.
func IsRuntimeName(name string) bool { return constFamily(name) != 0 }

// constFamily is FamilyOf for constants, which the driver spells CU_*.
func constFamily(name string) Family {
	if strings.HasPrefix(name, "CU_") {
		return CUDADriver
	}
	return FamilyOf(name)
}

var constants = func() map[string]Const {
	m := map[string]Const{}
	add := func(role ConstRole, value int64, names ...string) {
		for _, n := range names {
			m[n] = Const{Name: n, Role: role, Value: value}
		}
	}
	add(CopyKind, KindHostToHost, "hipMemcpyHostToHost", "cudaMemcpyHostToHost")
	add(CopyKind, KindHostToDevice, "hipMemcpyHostToDevice", "cudaMemcpyHostToDevice")
	add(CopyKind, KindDeviceToHost, "hipMemcpyDeviceToHost", "cudaMemcpyDeviceToHost")
	add(CopyKind, KindDeviceToDevice, "hipMemcpyDeviceToDevice", "cudaMemcpyDeviceToDevice")
	add(CopyKind, KindDefault, "hipMemcpyDefault", "cudaMemcpyDefault")
	add(StreamFlag, 0, "hipStreamDefault", "cudaStreamDefault", "CU_STREAM_DEFAULT")
	add(StreamFlag, NonBlockingStream, "hipStreamNonBlocking", "cudaStreamNonBlocking", "CU_STREAM_NON_BLOCKING")
	// Attribute values: HIP's are the same in 5.2.3 (Debian) and current ROCm;
	// the CUDA runtime and driver share theirs.
	add(PageableAttr, 65, "hipDeviceAttributePageableMemoryAccess")
	add(PageableAttr, 88, "cudaDevAttrPageableMemoryAccess", "CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS")
	add(ManagedAttr, 24, "hipDeviceAttributeManagedMemory")
	add(ManagedAttr, 9, "hipDeviceAttributeConcurrentManagedAccess")
	add(ManagedAttr, 83, "cudaDevAttrManagedMemory", "CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY")
	add(ManagedAttr, 89, "cudaDevAttrConcurrentManagedAccess", "CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS")
	add(SuccessStatus, 0, "hipSuccess", "cudaSuccess", "CUDA_SUCCESS")
	// The special stream handles are small integers cast to a stream pointer.
	add(NullStream, 1, "cudaStreamLegacy", "CU_STREAM_LEGACY")
	add(PerThreadStream, 2, "cudaStreamPerThread", "CU_STREAM_PER_THREAD", "hipStreamPerThread")
	return m
}()
