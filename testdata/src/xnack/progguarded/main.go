// Command progguarded stops unless XNACK is on, through another package's guard.
package main

import (
	"log"

	"xnack/kernels"
	"xnack/xnackguard"
)

func main() {
	if !xnackguard.Enabled(0) {
		log.Fatal("this program needs XNACK (HSA_XNACK=1 on an xnack-capable GPU)")
	}
	kernels.LaunchMalloc(16)
	kernels.NewManaged(16)
	kernels.LaunchGoSlice(16)
}
