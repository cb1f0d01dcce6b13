package gpu

import "testing"

func TestLaunchHost(t *testing.T) {
	LaunchHost(64) // want `TestLaunchHost reaches system memory \(C.malloc memory \(buf\) passed to hipModuleLaunchKernel in LaunchHost\) with no XNACK skip guard.*skip unless XNACK is on`
}

func TestLaunchHostSkip(t *testing.T) {
	if !PageableAccess() {
		t.Skip("XNACK is off")
	}
	LaunchHost(64)
}

func TestManaged(t *testing.T) {
	NewManaged(64) // want `TestManaged reaches managed memory \(hipMallocManaged in NewManaged\)`
}

func TestManagedSkip(t *testing.T) {
	if !PageableAccess() {
		t.Skip("XNACK is off")
	}
	NewManaged(64)
}
