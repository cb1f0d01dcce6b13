// Package testmainenv's tests enable XNACK in TestMain.
package testmainenv

import "xnack/kernels"

// Run uses managed and system memory.
func Run(n int) { // want Run:"needsXNACK\\(system, managed\\) initializesHIP"
	kernels.NewManaged(n)
	kernels.LaunchMalloc(n)
}
