// Package gpu is the CUDA half of a twin-file wrapper: buffer_cuda.go and
// buffer_hip.go (in twinhip here, since analysistest sees only the default
// build context) implement the same Go API, with prototypes declared by hand.
package gpu

/*
#include <stddef.h>
typedef int cudaError_t;
#define D2D 3
#define D2H 2
cudaError_t cudaMalloc(void** ptr, size_t size);
cudaError_t cudaFree(void* ptr);
cudaError_t cudaMemcpy(void* dst, const void* src, size_t size, int kind);
cudaError_t cudaDeviceSynchronize(void);
*/
import "C"

import (
	"fmt"
	"runtime"
	"unsafe"
)

func check(r C.cudaError_t) error {
	if r != 0 {
		return fmt.Errorf("cuda error %d", int(r))
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
	if err := check(C.cudaMalloc(&b.ptr, C.size_t(size))); err != nil {
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
	return check(C.cudaFree(b.ptr))
}

// CopyFrom copies src into b; it returns before the copy lands.
func (b *Buffer) CopyFrom(src *Buffer) error { // want CopyFrom:`copiesInto\(cudaMemcpy dst=r.ptr\)`
	return check(C.cudaMemcpy(b.ptr, src.ptr, C.size_t(b.size), C.D2D))
}

// Ptr returns the device address.
func (b *Buffer) Ptr() unsafe.Pointer { return b.ptr }

// Copy copies device memory; it returns before the copy lands.
func Copy(dst, src unsafe.Pointer, size int) error { // want Copy:`copiesInto\(cudaMemcpy dst=p0\)`
	return check(C.cudaMemcpy(dst, src, C.size_t(size), C.D2D))
}

// Download copies the buffer to the host with a blocking copy.
func (b *Buffer) Download(out []float32) error { // want Download:`synchronizes\(null\) deviceReads\(r.ptr on null\)`
	return check(C.cudaMemcpy(unsafe.Pointer(&out[0]), b.ptr, C.size_t(4*len(out)), C.D2H))
}

// HostView reads the buffer in place (it is host-visible on this platform).
func (b *Buffer) HostView() []float32 { // want HostView:`readsParams\[-1\.ptr\]`
	return append([]float32(nil), unsafe.Slice((*float32)(b.ptr), b.size/4)...)
}

// Synchronize waits for the current device.
func Synchronize() error { // want Synchronize:`synchronizes\(device\)`
	return check(C.cudaDeviceSynchronize())
}

func hazard() []float32 {
	dst, _ := Alloc(64)
	src, _ := Alloc(64)
	dst.CopyFrom(src)
	return dst.HostView() // want `HostView reads dst\.ptr on the host before the device-to-device copy into it by CopyFrom \(C.cudaMemcpy\) is ordered`
}

func synced() []float32 { // want synced:`synchronizes\(device\)`
	dst, _ := Alloc(64)
	src, _ := Alloc(64)
	dst.CopyFrom(src)
	Synchronize()
	return dst.HostView()
}
