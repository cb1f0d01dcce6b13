package kindenum

// #include <hip/hip_runtime_api.h>
import "C"

import "unsafe"

// Buffer is device memory with the runtime it was made on.
type Buffer struct {
	ptr unsafe.Pointer
	n   int
	rt  Runtime
}

// Ptr returns the device pointer.
func (b *Buffer) Ptr() unsafe.Pointer { return b.ptr }

// Host views the buffer on the host (it is managed memory).
func (b *Buffer) Host() []float32 { return unsafe.Slice((*float32)(b.ptr), b.n/4) }

func alloc(rt Runtime, n int) (*Buffer, error) {
	b := &Buffer{n: n, rt: rt}
	if err := check("hipMallocManaged", C.hipMallocManaged(&b.ptr, C.size_t(n), C.hipMemAttachGlobal)); err != nil {
		return nil, err
	}
	return b, nil
}

// Upload copies n bytes to a new buffer: device to device when src is on
// the device, else from the host. The copy lands before Upload returns
// only on the host path, so no caller may count on either.
func Upload(rt Runtime, src unsafe.Pointer, n int, onDevice bool) (*Buffer, error) {
	b, err := alloc(rt, n)
	if err != nil {
		return nil, err
	}
	if onDevice {
		if err := rt.Memcpy(b.ptr, src, n, DeviceToDevice); err != nil {
			return nil, err
		}
		return b, nil
	}
	if err := rt.Memcpy(b.ptr, src, n, HostToDevice); err != nil {
		return nil, err
	}
	return b, nil
}

// FromHost copies host data into a new buffer: a host-to-device copy,
// which returns with the data in place.
func FromHost(rt Runtime, host []float32) (*Buffer, error) {
	b, err := alloc(rt, 4*len(host))
	if err != nil {
		return nil, err
	}
	if err := rt.Memcpy(b.ptr, unsafe.Pointer(&host[0]), b.n, HostToDevice); err != nil {
		return nil, err
	}
	return b, nil
}

// Clone copies b on the device: it returns before the data lands.
func (b *Buffer) Clone() (*Buffer, error) { // want Clone:`copiesInto\(hipMemcpy dst=res0\.ptr\)`
	c, err := alloc(b.rt, b.n)
	if err != nil {
		return nil, err
	}
	if err := b.rt.Memcpy(c.ptr, b.ptr, b.n, DeviceToDevice); err != nil {
		return nil, err
	}
	return c, nil
}

// Storage is where a Tensor's elements live.
type Storage interface {
	Ptr() unsafe.Pointer
	Len() int
}

// Len returns the buffer's size in bytes.
func (b *Buffer) Len() int { return b.n }

// Tensor is a shape over a storage, as tensor libraries keep it.
type Tensor struct {
	shape   []int
	storage Storage
}

// Shape returns the tensor's shape: host metadata, never device memory.
func (t *Tensor) Shape() []int { return t.shape }

// Host views the tensor's elements on the host.
func (t *Tensor) Host() []float32 {
	return unsafe.Slice((*float32)(t.storage.Ptr()), t.storage.Len()/4)
}

// CloneTensor copies t's elements on the device into a new tensor of the
// same shape: it returns before the data lands.
func CloneTensor(t *Tensor) (*Tensor, error) { // want CloneTensor:`copiesInto\(hipMemcpy dst=res0\.storage\.ptr\) readsParams\[0\.shape\]`
	b, err := alloc(HIP{}, t.storage.Len())
	if err != nil {
		return nil, err
	}
	if err := (HIP{}).Memcpy(b.ptr, t.storage.Ptr(), b.n, DeviceToDevice); err != nil {
		return nil, err
	}
	shape := make([]int, len(t.shape))
	copy(shape, t.shape)
	return &Tensor{shape: shape, storage: b}, nil
}
