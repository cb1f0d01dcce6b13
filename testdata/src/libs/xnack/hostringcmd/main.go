// Command hostringcmd streams buffers through hostring.
package main

// #cgo CFLAGS: -I${SRCDIR}/../../../../include
// #include <hip/hip_runtime_api.h>
import "C"

import (
	"errors"
	"flag"
	"log"

	"libs/xnack/hostalloc"
	"libs/xnack/hostring"
)

// pageable reports hipDeviceAttributePageableMemoryAccess.
func pageable(dev int) (bool, error) {
	var v C.int
	if rc := C.hipDeviceGetAttribute(&v, C.hipDeviceAttributePageableMemoryAccess, C.int(dev)); rc != C.hipSuccess {
		return false, errors.New("hipDeviceGetAttribute failed")
	}
	return v == 1, nil
}

func main() {
	zeroCopy := flag.Bool("zerocopy", false, "process pageable buffers in place")
	flag.Parse()
	ring, err := hostring.FromAllocator(hostalloc.Pinned{}, 4, 1<<20)
	if err != nil {
		log.Fatal(err)
	}
	if err := ring.Drain(); err != nil {
		log.Fatal(err)
	}
	if *zeroCopy {
		ok, err := pageable(0)
		if err != nil || !ok {
			log.Fatal("zero copy needs XNACK")
		}
		pr := hostring.NewPageableRing(4, 1<<20)
		pr.Drain()
	}
	// Hazard: a Go slice processed in place with no check.
	data := make([]float32, 1024)
	if err := hostring.ProcessSlice(data); err != nil { // want `main reaches`
		log.Fatal(err)
	}
}
