// Package xnackguard holds XNACK guard wrappers in a package of their own,
// the way Go GPU libraries ship them: their summaries reach callers as facts.
package xnackguard

// #cgo CFLAGS: -I${SRCDIR}/../../../include
// #include <hip/hip_runtime_api.h>
import "C"

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// Enabled reports whether XNACK is on for device dev: gcnArchName carries
// "xnack+" (for example "gfx90a:sramecc+:xnack+").
func Enabled(dev int) bool { // want Enabled:"reportsXNACK\\(result=0\\) initializesHIP"
	var prop C.hipDeviceProp_t
	if C.hipGetDeviceProperties(&prop, C.int(dev)) != C.hipSuccess {
		return false
	}
	return strings.Contains(C.GoString(&prop.gcnArchName[0]), "xnack+")
}

// PageableAccess reports hipDeviceAttributePageableMemoryAccess, which is 1
// only when XNACK is on for every GPU.
func PageableAccess(dev int) (bool, error) { // want PageableAccess:"reportsXNACK\\(result=0\\) initializesHIP"
	var v C.int
	if r := C.hipDeviceGetAttribute(&v, C.hipDeviceAttributePageableMemoryAccess, C.int(dev)); r != C.hipSuccess {
		return false, fmt.Errorf("hip error %d", int(r))
	}
	return v == 1, nil
}

// ManagedSupported reports hipDeviceAttributeManagedMemory: HMM support,
// which is not XNACK.
func ManagedSupported(dev int) bool { // want ManagedSupported:"reportsHMM\\(result=0\\) initializesHIP"
	var v C.int
	C.hipDeviceGetAttribute(&v, C.hipDeviceAttributeManagedMemory, C.int(dev))
	return v != 0
}

// RequireManaged returns nil only when hipDeviceAttributeManagedMemory is 1:
// HMM support, which is not XNACK (its fact names the attribute).
func RequireManaged(dev int) error { // want RequireManaged:"errUnlessHMM\\(result=0, hipDeviceAttributeManagedMemory\\) initializesHIP"
	var v C.int
	C.hipDeviceGetAttribute(&v, C.hipDeviceAttributeManagedMemory, C.int(dev))
	if v != 1 {
		return fmt.Errorf("no managed memory on device %d", dev)
	}
	return nil
}

// SkipUnlessXNACK skips the calling test unless XNACK is on.
func SkipUnlessXNACK(tb testing.TB) { // want SkipUnlessXNACK:"initializesHIP guardsXNACK"
	if !Enabled(0) {
		tb.Skip("XNACK is off on device 0")
	}
}

// Enable turns XNACK on for the process; it must run before any HIP call.
func Enable() { // want Enable:"setsHSA_XNACK guardsXNACK"
	os.Setenv("HSA_XNACK", "1")
}

// EnableFromPair sets a variable whose name and value come from a call
// (os.Setenv(f())): they are not constants, so it is taken neither as
// setting HSA_XNACK nor as a guard, and it has no fact.
func EnableFromPair() {
	os.Setenv(xnackPair())
}

func xnackPair() (string, string) { return "HSA_XNACK", "1" }

// DeviceCount initializes the runtime (hipGetDeviceCount is not in the API
// table: any HIP call initializes it).
func DeviceCount() int { // want DeviceCount:"initializesHIP"
	var n C.int
	C.hipGetDeviceCount(&n)
	return int(n)
}

// Status is a guard-looking function that is not one: it returns true on
// other paths too.
func Status(dev int) bool { // want Status:"initializesHIP"
	var prop C.hipDeviceProp_t
	if C.hipGetDeviceProperties(&prop, C.int(dev)) != C.hipSuccess {
		return true
	}
	return strings.Contains(C.GoString(&prop.gcnArchName[0]), "xnack+")
}
