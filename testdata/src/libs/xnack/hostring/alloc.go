package hostring

import "unsafe"

// FromAllocator builds a ring from an Allocator's buffers.
func FromAllocator(a Allocator, n, size int) (*Ring, error) {
	r := &Ring{size: size}
	for range n {
		p, err := a.Alloc(size)
		if err != nil {
			return nil, err
		}
		r.bufs = append(r.bufs, p)
	}
	return r, nil
}

// Drain processes every buffer once.
func (r *Ring) Drain() error { // want Drain:"initializesHIP"
	for range r.bufs {
		if err := r.Next(); err != nil {
			return err
		}
	}
	return nil
}

var _ = unsafe.Pointer(nil)
