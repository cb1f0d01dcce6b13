package gpu

import "testing"

func TestLaunchHost(t *testing.T) {
	LaunchHost(64) // want `TestLaunchHost reaches system memory \(C.malloc memory \(buf\) passed to cudaLaunchKernel in LaunchHost\) with no XNACK skip guard.*skip unless cudaDevAttrPageableMemoryAccess is 1`
}

func TestLaunchHostSkip(t *testing.T) {
	if !PageableAccess() {
		t.Skip("no pageable memory access")
	}
	LaunchHost(64)
}

func TestManaged(t *testing.T) {
	NewManaged(64)
}
