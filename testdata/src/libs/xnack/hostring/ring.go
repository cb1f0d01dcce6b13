// Package hostring streams host buffers through a kernel without copying:
// the kernel reads the host memory in place. Pinned buffers
// (hipHostMalloc) work on every GPU; pageable ones (C.malloc, Go slices)
// only where the GPU can fault pages in (XNACK). Allocators are pluggable
// (hostalloc has two).
package hostring

// #cgo CFLAGS: -I${SRCDIR}/../../../../include
// #include <hip/hip_runtime_api.h>
// #include <stdlib.h>
import "C"

import (
	"fmt"
	"unsafe"
)

// Allocator gives host buffers.
type Allocator interface {
	Alloc(n int) (unsafe.Pointer, error)
	Free(p unsafe.Pointer)
}

var scale C.hipFunction_t

// Ring is a set of host buffers processed in turn.
type Ring struct {
	bufs []unsafe.Pointer
	size int
	next int
}

// NewPinnedRing allocates n pinned buffers.
func NewPinnedRing(n, size int) (*Ring, error) { // want NewPinnedRing:"initializesHIP"
	r := &Ring{size: size}
	for range n {
		var p unsafe.Pointer
		if rc := C.hipHostMalloc(&p, C.size_t(size), 0); rc != C.hipSuccess {
			return nil, fmt.Errorf("hostring: hipHostMalloc: %d", int(rc))
		}
		r.bufs = append(r.bufs, p)
	}
	return r, nil
}

// NewPageableRing allocates n buffers with C.malloc.
func NewPageableRing(n, size int) *Ring {
	r := &Ring{size: size}
	for range n {
		r.bufs = append(r.bufs, C.malloc(C.size_t(size)))
	}
	return r
}

// process runs the kernel over one buffer in place.
func process(p unsafe.Pointer, size int) error {
	n := C.int(size / 4)
	args := [2]unsafe.Pointer{unsafe.Pointer(&p), unsafe.Pointer(&n)}
	if rc := C.hipModuleLaunchKernel(scale, C.uint((size/4+255)/256), 1, 1, 256, 1, 1, 0, nil, &args[0], nil); rc != C.hipSuccess {
		return fmt.Errorf("hostring: launch: %d", int(rc))
	}
	return nil
}

// Next processes the next buffer of the ring.
func (r *Ring) Next() error { // want Next:"initializesHIP"
	p := r.bufs[r.next]
	r.next = (r.next + 1) % len(r.bufs)
	return process(p, r.size)
}

// ProcessSlice runs the kernel over a Go slice in place.
func ProcessSlice(x []float32) error { // want ProcessSlice:"launchesParams\\(p0\\) initializesHIP"
	return process(unsafe.Pointer(&x[0]), 4*len(x))
}

// ProcessPinnedCopy copies the slice into a pinned staging buffer first:
// safe everywhere.
func ProcessPinnedCopy(x []float32) error { // want ProcessPinnedCopy:"initializesHIP"
	var p unsafe.Pointer
	size := C.size_t(4 * len(x))
	if rc := C.hipHostMalloc(&p, size, 0); rc != C.hipSuccess {
		return fmt.Errorf("hostring: hipHostMalloc: %d", int(rc))
	}
	defer C.hipHostFree(p)
	C.memcpy(p, unsafe.Pointer(&x[0]), size)
	return process(p, int(size))
}
