// Package hostalloc has allocators for hostring.
package hostalloc

// #cgo CFLAGS: -I${SRCDIR}/../../../../include
// #include <hip/hip_runtime_api.h>
// #include <stdlib.h>
import "C"

import (
	"errors"
	"unsafe"
)

// Pinned allocates page-locked host memory.
type Pinned struct{}

func (Pinned) Alloc(n int) (unsafe.Pointer, error) { // want Alloc:"initializesHIP"
	var p unsafe.Pointer
	if C.hipHostMalloc(&p, C.size_t(n), 0) != C.hipSuccess {
		return nil, errors.New("hipHostMalloc failed")
	}
	return p, nil
}

func (Pinned) Free(p unsafe.Pointer) { C.hipHostFree(p) } // want Free:"initializesHIP"

// Malloc allocates pageable memory with C.malloc.
type Malloc struct{}

func (Malloc) Alloc(n int) (unsafe.Pointer, error) { return C.malloc(C.size_t(n)), nil } // want Alloc:"returnsSystemMemory\\(result=0\\)"

func (Malloc) Free(p unsafe.Pointer) { C.free(p) }
