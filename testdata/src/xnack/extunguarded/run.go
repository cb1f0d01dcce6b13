package extunguarded

import "xnack/kernels"

// Run launches a kernel over n bytes of C.malloc memory.
func Run(n int) { kernels.LaunchMalloc(n) } // want Run:"needsXNACK\\(system\\) initializesHIP"
