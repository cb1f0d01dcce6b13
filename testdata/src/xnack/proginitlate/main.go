// Command proginitlate initializes HIP in init, so setting HSA_XNACK in main
// is too late, and too late through a wrapper too.
package main

import (
	"os"

	"xnack/kernels"
	"xnack/xnackguard"
)

var devices int

func init() {
	devices = xnackguard.DeviceCount()
}

func main() {
	os.Setenv("HSA_XNACK", "1") // want `HSA_XNACK is set after a HIP runtime call has already run on this path`
	xnackguard.Enable()         // want `HSA_XNACK is set after a HIP runtime call has already run on this path`
	kernels.NewManaged(16)      // want `main uses managed memory`
}
