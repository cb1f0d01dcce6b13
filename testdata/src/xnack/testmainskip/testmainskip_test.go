package testmainskip

import (
	"fmt"
	"os"
	"testing"

	"xnack/kernels"
	"xnack/xnackguard"
)

func TestMain(m *testing.M) { // want TestMain:"guardsTests"
	if !xnackguard.Enabled(0) {
		fmt.Println("skipping: XNACK is off")
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func TestManaged(t *testing.T) {
	kernels.NewManaged(16)
	kernels.LaunchMalloc(16)
}
