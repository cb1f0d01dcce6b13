// Command patternsguarded stops unless XNACK is on, through the guard of an
// interface over several runtimes, then uses the same memory as
// patternsprog.
package main

import (
	"log"

	"xnack/patterns"
)

func main() {
	rt := patterns.Pick(false)
	if !rt.XNACKEnabled() {
		log.Fatal("this program needs XNACK (HSA_XNACK=1 on an xnack-capable GPU)")
	}
	ctx := &patterns.Context{}
	b := patterns.NewHostBuffer(64)
	defer b.Free()
	b.Launch()
	patterns.UseRuntime(rt, 1024)
	ctx.LaunchHost(16)
	patterns.LaunchCached("x")
}
