package devpool

// #include <hip/hip_runtime_api.h>
import "C"

import (
	"iter"
	"sync"
	"unsafe"
)

// Buffer is pooled device memory.
type Buffer struct {
	ptr  unsafe.Pointer
	n    int // float32 elements
	pool *Pool
}

// Len is the number of float32 elements.
func (b *Buffer) Len() int { return b.n }

// Host views a managed buffer on the host.
func (b *Buffer) Host() []float32 { return unsafe.Slice((*float32)(b.ptr), b.n) }

// Release returns the buffer to its pool.
func (b *Buffer) Release() { b.pool.put(b) } // want Release:`readsParams\[-1\.pool\.free\]`

// Pool keeps freed buffers by size for reuse.
type Pool struct {
	mu   sync.Mutex
	dev  *Device
	free map[int][]*Buffer
	live []*Buffer
}

func newPool(d *Device) *Pool { return &Pool{dev: d, free: map[int][]*Buffer{}} }

// Get returns a buffer of n elements, reused when one is free.
func (p *Pool) Get(n int) (*Buffer, error) { // want Get:`readsParams\[-1\.free\]`
	p.mu.Lock()
	defer p.mu.Unlock()
	if bs := p.free[n]; len(bs) > 0 {
		b := bs[len(bs)-1]
		p.free[n] = bs[:len(bs)-1]
		return b, nil
	}
	b := &Buffer{n: n, pool: p}
	var err error
	if p.dev.opts.Managed {
		err = status("hipMallocManaged", C.hipMallocManaged(&b.ptr, C.size_t(4*n), C.hipMemAttachGlobal))
	} else {
		err = status("hipMalloc", C.hipMalloc(&b.ptr, C.size_t(4*n)))
	}
	if err != nil {
		return nil, err
	}
	p.live = append(p.live, b)
	return b, nil
}

func (p *Pool) put(b *Buffer) { // want put:`readsParams\[-1\.free\]`
	p.mu.Lock()
	p.free[b.n] = append(p.free[b.n], b)
	p.mu.Unlock()
}

// Live iterates over every buffer the pool has allocated.
func (p *Pool) Live() iter.Seq[*Buffer] {
	return func(yield func(*Buffer) bool) {
		for _, b := range p.live {
			if !yield(b) {
				return
			}
		}
	}
}

// Drain frees every buffer once all work on the device has finished.
func (p *Pool) Drain() error { // want Drain:`synchronizes\(device\)`
	if err := p.dev.Sync(); err != nil {
		return err
	}
	for _, b := range p.live {
		C.hipFree(b.ptr)
	}
	p.live, p.free = nil, map[int][]*Buffer{}
	return nil
}
