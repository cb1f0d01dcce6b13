// Command realshapesprog stops unless XNACK is on, through a guard helper
// that returns an error.
package main

import (
	"log"

	"xnack/realshapes"
)

func main() {
	if err := realshapes.RequireXNACK(0); err != nil {
		log.Fatal(err)
	}
	realshapes.LaunchCArgsMalloc(16)
	realshapes.LaunchCArray(16)
}
