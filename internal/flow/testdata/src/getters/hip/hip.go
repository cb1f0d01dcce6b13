// Package hip calls the runtime: the packages that import it are involved.
package hip

// #cgo CFLAGS: -I${SRCDIR}/../../../../../../testdata/include
// #include <hip/hip_runtime_api.h>
import "C"

import "unsafe"

func Malloc(n int) unsafe.Pointer {
	var p unsafe.Pointer
	C.hipMalloc(&p, C.size_t(n))
	return p
}
