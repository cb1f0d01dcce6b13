package testmainlate

import (
	"os"
	"testing"

	"xnack/kernels"
	"xnack/xnackguard"
)

func TestMain(m *testing.M) {
	if xnackguard.DeviceCount() == 0 {
		os.Exit(0)
	}
	os.Setenv("HSA_XNACK", "1") // want `HSA_XNACK is set after a HIP runtime call has already run on this path`
	os.Exit(m.Run())
}

func TestManaged(t *testing.T) {
	kernels.NewManaged(16) // want `TestManaged reaches managed memory \(hipMallocManaged in NewManaged\) with no XNACK skip guard`
}
