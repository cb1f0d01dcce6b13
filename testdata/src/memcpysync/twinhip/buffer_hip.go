// Package gpu is the HIP half of a twin-file wrapper: buffer_hip.go and
// buffer_cuda.go (in twincuda here, since analysistest sees only the default
// build context) implement the same Go API, with prototypes declared by hand.
package gpu

/*
#include <stddef.h>
typedef int hipError_t;
#define D2D 3
#define D2H 2
hipError_t hipMalloc(void** ptr, size_t size);
hipError_t hipFree(void* ptr);
hipError_t hipMemcpy(void* dst, const void* src, size_t size, int kind);
hipError_t hipDeviceSynchronize(void);
*/
import "C"

import (
	"fmt"
	"runtime"
	"unsafe"
)

func check(r C.hipError_t) error {
	if r != 0 {
		return fmt.Errorf("hip error %d", int(r))
	}
	return nil
}

// Buffer is device memory.
type Buffer struct {
	ptr   unsafe.Pointer
	size  int
	freed bool
}

// Alloc allocates device memory, freed by Free or the finalizer.
func Alloc(size int) (*Buffer, error) {
	b := &Buffer{size: size}
	if err := check(C.hipMalloc(&b.ptr, C.size_t(size))); err != nil {
		return nil, err
	}
	runtime.SetFinalizer(b, func(b *Buffer) { b.Free() })
	return b, nil
}

// Free frees the buffer once.
func (b *Buffer) Free() error {
	if b.freed {
		return nil
	}
	b.freed = true
	return check(C.hipFree(b.ptr))
}

// CopyFrom copies src into b; it returns before the copy lands.
func (b *Buffer) CopyFrom(src *Buffer) error { // want CopyFrom:`copiesInto\(hipMemcpy dst=r.ptr\)`
	return check(C.hipMemcpy(b.ptr, src.ptr, C.size_t(b.size), C.D2D))
}

// Ptr returns the device address.
func (b *Buffer) Ptr() unsafe.Pointer { return b.ptr }

// Copy copies device memory; it returns before the copy lands.
func Copy(dst, src unsafe.Pointer, size int) error { // want Copy:`copiesInto\(hipMemcpy dst=p0\)`
	return check(C.hipMemcpy(dst, src, C.size_t(size), C.D2D))
}

// Download copies the buffer to the host with a blocking copy.
func (b *Buffer) Download(out []float32) error { // want Download:`synchronizes\(null\) deviceReads\(r.ptr on null\)`
	return check(C.hipMemcpy(unsafe.Pointer(&out[0]), b.ptr, C.size_t(4*len(out)), C.D2H))
}

// HostView reads the buffer in place (it is host-visible on this platform).
func (b *Buffer) HostView() []float32 { // want HostView:`readsParams\[-1\.ptr\]`
	return append([]float32(nil), unsafe.Slice((*float32)(b.ptr), b.size/4)...)
}

// Synchronize waits for the current device.
func Synchronize() error { // want Synchronize:`synchronizes\(device\)`
	return check(C.hipDeviceSynchronize())
}

func hazard() []float32 {
	dst, _ := Alloc(64)
	src, _ := Alloc(64)
	dst.CopyFrom(src)
	return dst.HostView() // want `HostView reads dst\.ptr on the host before the device-to-device copy into it by CopyFrom \(C.hipMemcpy\) is ordered`
}

func synced() []float32 { // want synced:`synchronizes\(device\)`
	dst, _ := Alloc(64)
	src, _ := Alloc(64)
	dst.CopyFrom(src)
	Synchronize()
	return dst.HostView()
}
