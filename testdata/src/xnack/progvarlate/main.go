// Command progvarlate initializes HIP in a package-level variable's
// initializer, which runs before main; and defers a HIP call, which runs
// only at exit.
package main

import (
	"os"

	"xnack/xnackguard"
)

var devices = xnackguard.DeviceCount()

func main() {
	os.Setenv("HSA_XNACK", "1") // want `HSA_XNACK is set after a HIP runtime call has already run on this path`
}

// deferredInit sets HSA_XNACK before the deferred HIP call runs: in time.
func deferredInit() {
	defer xnackguard.DeviceCount()
	os.Setenv("HSA_XNACK", "1")
}
