// Command cudaprog uses cudatwins without a guard.
package main

import "xnack/cudatwins"

func main() {
	cudatwins.LaunchDevice(16)
	cudatwins.ManagedPrefetch(16)
	cudatwins.LaunchMalloc(16) // want `main reaches C.malloc memory \(buf\) passed to cudaLaunchKernel in LaunchMalloc without an XNACK guard: .* run it only when cudaDevAttrPageableMemoryAccess is 1 \(NVIDIA has no XNACK; this is its analogue\), or use cudaMalloc or cudaMallocHost memory`
	cudatwins.GuardedPageable(16)
}
