package realshapes

import "testing"

func TestGuardHelperSkip(t *testing.T) {
	if err := RequireXNACK(0); err != nil {
		t.Skip(err)
	}
	LaunchCArgsMalloc(16)
}

func TestGuardHelperFatal(t *testing.T) {
	err := requirePageable(0)
	if err != nil {
		t.Fatal(err)
	}
	LaunchCArray(16)
}

func TestGuardHelperEqualNil(t *testing.T) {
	if requirePageable(0) == nil {
		LaunchCArray(16)
	}
}

func TestGuardedRun(t *testing.T) {
	if err := run(); err != nil {
		t.Skip(err)
	}
}

func TestWrongHelper(t *testing.T) {
	if err := requireManaged(0); err != nil { // want `requireManaged \(it checks hipDeviceAttributeManagedMemory\) reports HMM`
		t.Skip(err)
	}
	LaunchCArray(16)
}

func TestNotAGuard(t *testing.T) {
	if err := notAGuard(0); err != nil {
		t.Skip(err)
	}
	LaunchCArray(16) // want `TestNotAGuard reaches system memory \(C.malloc memory \(host\) passed to hipModuleLaunchKernel in LaunchCArray\)`
}

func TestCArgsMalloc(t *testing.T) {
	LaunchCArgsMalloc(16) // want `TestCArgsMalloc reaches system memory \(C.malloc memory \(buf\) passed to hipModuleLaunchKernel in LaunchCArgsMalloc\)`
}

func TestCArgsDevice(t *testing.T) {
	LaunchCArgsDevice(16)
	LaunchCArrayDevice(16)
}

func TestSliceData(t *testing.T) {
	LaunchSlice(make([]float32, 16)) // want `TestSliceData reaches system memory`
}

func TestDevicePointer(t *testing.T) {
	LaunchDevice(DeviceAlloc(64))
}

func TestNamedResult(t *testing.T) {
	if err := namedResult(0); err != nil {
		t.Skip(err)
	}
	LaunchCArray(16) // want `TestNamedResult reaches system memory`
}
