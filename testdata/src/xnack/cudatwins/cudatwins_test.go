package cudatwins

import "testing"

func TestLaunchMalloc(t *testing.T) {
	LaunchMalloc(16) // want `TestLaunchMalloc reaches system memory \(C.malloc memory \(buf\) passed to cudaLaunchKernel in LaunchMalloc\) with no XNACK skip guard: .*; skip unless cudaDevAttrPageableMemoryAccess is 1`
}

func TestManaged(t *testing.T) {
	ManagedPrefetch(16)
	LaunchDevice(16)
}

func TestGuarded(t *testing.T) {
	on := pageable()
	if !on {
		t.Skip("no pageable memory access")
	}
	LaunchMalloc(16)
}
