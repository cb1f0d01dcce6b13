// Command patternsenv enables XNACK in init through a wrapper that sets
// HSA_XNACK before its first HIP call (inside ctx.Do).
package main

import "xnack/patterns"

var ctx = &patterns.Context{}

func init() {
	patterns.EnableEarly(ctx)
}

func main() {
	ctx.LaunchHost(16)
	patterns.NewManaged(16)
}
