// Package user relies on managed memory, behind the guards of hiplint's
// importable package github.com/hiplint/hiplint/xnackguard in its tests and
// in ../prog. Each line that must draw a finding is marked `// hazard: ID`;
// the guarded twins must draw none.
package user

/*
#cgo CFLAGS: -I${SRCDIR}/../../../../../testdata/include
#include <hip/hip_runtime_api.h>
*/
import "C"

import "unsafe"

// Managed allocates n bytes of managed memory and prefetches them to device
// 0: without XNACK they stay pinned in host memory.
func Managed(n int) (unsafe.Pointer, error) {
	var p unsafe.Pointer
	if C.hipMallocManaged(&p, C.size_t(n), C.hipMemAttachGlobal) != C.hipSuccess {
		return nil, errFailed
	}
	C.hipMemPrefetchAsync(p, C.size_t(n), 0, nil)
	return p, nil
}

type failed struct{}

func (failed) Error() string { return "hipMallocManaged failed" }

var errFailed error = failed{}
