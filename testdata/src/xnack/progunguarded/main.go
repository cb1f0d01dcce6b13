// Command progunguarded uses XNACK-dependent memory with no guard.
package main

import "xnack/kernels"

func main() {
	kernels.LaunchDevice(16)
	kernels.LaunchMalloc(16)  // want `main reaches C.malloc memory \(buf\) passed to hipModuleLaunchKernel in LaunchMalloc without an XNACK guard: without XNACK the GPU cannot fault the pages in`
	kernels.NewManaged(16)    // want `main uses managed memory \(hipMallocManaged in NewManaged\) without an XNACK guard: without XNACK it does not migrate and falls back to pinned host memory`
	kernels.LaunchGoSlice(16) // one report per check and entry: this is a related position
	run()
}

func run() {
	kernels.GuardedArch(16)
	kernels.GuardedPageable(16)
}
