// Command umloadcmd normalizes a dataset with umload.
package main

import (
	"log"
	"os"

	"libs/xnack/umload"
)

func main() {
	// Hazard: Capabilities has initialized HIP; HSA_XNACK is read then.
	if !umload.Capabilities().XNACK {
		os.Setenv("HSA_XNACK", "1") // want `HSA_XNACK`
	}
	data := make([]float32, 1<<20)
	if umload.ZeroCopy() {
		if err := umload.NormalizeSlice(data); err != nil {
			log.Fatal(err)
		}
	}
	// Hazard: a managed batch with no guard.
	b, err := umload.NewBatch(len(data), umload.Options{Managed: true}) // want `managed`
	if err != nil {
		log.Fatal(err)
	}
	if err := b.Prefetch(); err != nil {
		log.Fatal(err)
	}
}
