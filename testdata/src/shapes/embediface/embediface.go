// Package embediface is issue 16's reproducer: a struct that embeds an
// interface implements it through the interface's own method, which made
// three analyzers recurse until the stack overflowed.
package embediface

// #cgo CFLAGS: -I${SRCDIR}/../../../include
// #include <hip/hip_runtime_api.h>
import "C"

import "unsafe"

type Reader interface{ Read(p unsafe.Pointer) }

type Wrapped struct{ Reader } // embeds the interface

func Copy(dst, src unsafe.Pointer, n C.size_t, r Reader) {
	C.hipMemcpy(dst, src, n, C.hipMemcpyDeviceToDevice)
	r.Read(dst)
}

var _ Reader = Wrapped{}
