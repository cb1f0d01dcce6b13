// Command progenvmain enables XNACK at the top of main, directly and through a
// wrapper in another package, before any HIP call.
package main

import (
	"os"

	"xnack/kernels"
	"xnack/xnackguard"
)

func main() {
	os.Setenv("HSA_XNACK", "1")
	xnackguard.Enable()
	kernels.NewManaged(16)
	kernels.LaunchMmap(16)
}
