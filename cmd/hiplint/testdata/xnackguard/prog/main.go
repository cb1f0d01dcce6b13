// Command prog uses managed memory once unguarded (init) and once behind
// xnackguard.Enabled (main).
package main

import (
	"log"

	"github.com/hiplint/hiplint/cmd/hiplint/testdata/xnackguard/user"
	"github.com/hiplint/hiplint/xnackguard"
)

func init() {
	user.Managed(1 << 10) // hazard: HL4002
}

func main() {
	if !xnackguard.Enabled(0) {
		log.Fatal("needs XNACK: run with HSA_XNACK=1 on an xnack-capable GPU")
	}
	user.Managed(1 << 20)
}
