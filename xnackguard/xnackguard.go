// Package xnackguard checks that XNACK is on before code relies on it, in
// the forms hiplint's xnack analyzer recognizes as guards (docs/checks
// HL4001 to HL4005): importing it is enough for hiplint to know that what
// follows a passed check is guarded, here and in every importer.
//
//	if !xnackguard.Enabled(0) {
//		log.Fatal("needs XNACK: run with HSA_XNACK=1 on an xnack-capable GPU")
//	}
//
//	func TestManaged(t *testing.T) {
//		xnackguard.SkipUnlessXNACK(t)
//		...
//	}
//
// XNACK lets an AMD GPU retry an access to a page that is not resident:
// without it a kernel touching malloc'd or Go memory aborts, and managed
// memory does not migrate. ROCR reads HSA_XNACK once, when the HIP runtime
// initializes, so each check here reports what the running process has.
//
// The package calls the HIP runtime and names no library: link your program
// against it as for any other HIP call (#cgo LDFLAGS: -lamdhip64). It is
// compiled against hiplint's declarations of the HIP 6 API (testdata/include),
// so that it builds, vets and lints on any machine, GPU headers or not; put
// your ROCm's headers first with CGO_CFLAGS=-I/opt/rocm/include to compile it
// against them instead. Under a ROCm 5 runtime with hiplint's declarations,
// Enabled reports false (that runtime fills only the ROCm 5 layout of
// hipDeviceProp_t); PageableMemoryAccess works with either.
package xnackguard

/*
#cgo CFLAGS: -D__HIP_PLATFORM_AMD__ -I${SRCDIR}/../testdata/include
#include <hip/hip_runtime_api.h>

#ifdef HIPLINT_FIXTURE_HIP_RUNTIME_API_H
// hiplint's declarations lay hipDeviceProp_t out as ROCm 6 does, a layout
// the ROCm 6 runtime fills only through hipGetDevicePropertiesR0600 (its own
// header makes the same substitution); ROCm 5 has no such function, and the
// weak reference is then null.
extern hipError_t hipGetDevicePropertiesR0600(hipDeviceProp_tR0600* prop, int deviceId) __attribute__((weak));

static hipError_t xnackguard_hipGetDeviceProperties(hipDeviceProp_t* prop, int deviceId) {
	if (!hipGetDevicePropertiesR0600) {
		return hipErrorNotSupported;
	}
	return hipGetDevicePropertiesR0600(prop, deviceId);
}
#define hipGetDeviceProperties xnackguard_hipGetDeviceProperties
#endif
*/
import "C"

import (
	"fmt"
	"strings"
	"testing"
)

// Enabled reports whether XNACK is on for device dev: its gcnArchName (for
// example "gfx90a:sramecc+:xnack+") carries "xnack+". It is false where the
// runtime cannot describe the device.
func Enabled(dev int) bool {
	var prop C.hipDeviceProp_t
	if C.hipGetDeviceProperties(&prop, C.int(dev)) != C.hipSuccess {
		return false
	}
	return strings.Contains(C.GoString(&prop.gcnArchName[0]), "xnack+")
}

// PageableMemoryAccess reports whether device dev can access pageable host
// memory (hipDeviceAttributePageableMemoryAccess is 1), which on AMD GPUs
// holds only with XNACK on. Unlike hipDeviceAttributeManagedMemory and
// hipDeviceAttributeConcurrentManagedAccess, which report HMM support (HL4005),
// it is a guard.
func PageableMemoryAccess(dev int) (bool, error) {
	var v C.int
	if r := C.hipDeviceGetAttribute(&v, C.hipDeviceAttributePageableMemoryAccess, C.int(dev)); r != C.hipSuccess {
		return false, fmt.Errorf("hipDeviceGetAttribute(hipDeviceAttributePageableMemoryAccess, %d): hip error %d", dev, int(r))
	}
	return v == 1, nil
}

// SkipUnlessXNACK skips the calling test, benchmark or fuzz target unless
// XNACK is on for device 0: on an XNACK-off machine the test would abort the
// whole test binary, or hang on managed memory that does not migrate.
func SkipUnlessXNACK(tb testing.TB) {
	tb.Helper()
	if !Enabled(0) {
		tb.Skip("XNACK is off on device 0 (or no HIP device): run with HSA_XNACK=1 on an xnack-capable GPU")
	}
}
