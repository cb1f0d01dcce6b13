// Command patternsprog reaches XNACK-dependent memory through the wrapper
// styles of xnack/patterns, with no guard.
package main

import "xnack/patterns"

func main() {
	ctx := &patterns.Context{}
	patterns.LaunchDevice(16)
	ctx.LaunchHostGuarded(16)
	b := patterns.NewHostBuffer(64)
	defer b.Free()
	b.Launch()                                      // want `main reaches C.malloc memory \(b.ptr\) passed to hipModuleLaunchKernel in Launch without an XNACK guard`
	patterns.UseRuntime(patterns.Pick(false), 1024) // want `main uses managed memory \(hipMallocManaged in MallocManaged\) without an XNACK guard`
	ctx.LaunchHost(16)                              // one report per check and entry: related positions
	patterns.LaunchCached("x")
}
