// Command progenvinit enables XNACK in init, before any HIP call.
package main

import (
	"os"

	"xnack/kernels"
)

func init() {
	os.Setenv("HSA_XNACK", "1")
}

func main() {
	kernels.NewManaged(16)
	kernels.LaunchMalloc(16)
}
