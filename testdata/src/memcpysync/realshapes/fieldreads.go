package realshapes

// #include <hip/hip_runtime_api.h>
import "C"

import "unsafe"

// Slab is pooled managed memory with host-side bookkeeping next to the
// device pointer.
type Slab struct {
	ptr  unsafe.Pointer
	n    int
	tags map[int][]int
}

// Tag records a tag in the slab's bookkeeping: it reads s.tags on the
// host, not the memory at s.ptr.
func (s *Slab) Tag(k, v int) { // want Tag:`readsParams\[-1\.tags\]`
	s.tags[k] = append(s.tags[k], v)
}

// First reads the slab's memory on the host.
func (s *Slab) First() float32 { // want First:`readsParams\[-1\.ptr\]`
	return unsafe.Slice((*float32)(s.ptr), s.n)[0]
}

func (s *Slab) fill(src unsafe.Pointer) { // want fill:`copiesInto\(hipMemcpy dst=r\.ptr\)`
	C.hipMemcpy(s.ptr, src, C.size_t(4*s.n), C.hipMemcpyDeviceToDevice)
}

// A wrapper that reads the field the copy wrote reads the copy.
func fieldReadHazard(s *Slab, src unsafe.Pointer) float32 { // want fieldReadHazard:`copiesInto\(hipMemcpy dst=p0\.ptr\) readsParams\[0\.ptr\]`
	s.fill(src)
	return s.First() // want `First reads s\.ptr on the host before the device-to-device copy`
}

// One that reads another field of the same struct does not.
func fieldReadTwin(s *Slab, src unsafe.Pointer) { // want fieldReadTwin:`copiesInto\(hipMemcpy dst=p0\.ptr\) readsParams\[0\.tags\]`
	s.fill(src)
	s.Tag(1, 2)
}
