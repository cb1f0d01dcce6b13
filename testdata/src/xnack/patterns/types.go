package patterns

/*
#include <stddef.h>
#include <stdlib.h>
typedef int hipError_t;
typedef struct ihipModuleSymbol_t* hipFunction_t;
typedef struct ihipStream_t* hipStream_t;
hipError_t hipMalloc(void** ptr, size_t size);
hipError_t hipFree(void* ptr);
hipError_t hipModuleLaunchKernel(hipFunction_t f, unsigned int gx, unsigned int gy, unsigned int gz,
	unsigned int bx, unsigned int by, unsigned int bz, unsigned int shared, hipStream_t stream,
	void** args, void** extra);
*/
import "C"

import (
	"errors"
	"runtime"
	"sync"
	"unsafe"
)

var errFreed = errors.New("buffer freed")

// Style: buffer types with a freed flag, a Free method and a finalizer.
// Every HostBuffer holds C.malloc memory.
type HostBuffer struct {
	ptr   unsafe.Pointer
	size  int
	freed bool
}

func NewHostBuffer(size int) *HostBuffer {
	b := &HostBuffer{ptr: C.malloc(C.size_t(size)), size: size}
	runtime.SetFinalizer(b, (*HostBuffer).Free)
	return b
}

func (b *HostBuffer) Free() {
	if !b.freed {
		C.free(b.ptr)
		b.freed = true
	}
}

// Launch passes the buffer to a kernel.
func (b *HostBuffer) Launch() error { // want Launch:"needsXNACK\\(system\\) initializesHIP"
	if b.freed {
		return errFreed
	}
	args := []unsafe.Pointer{unsafe.Pointer(&b.ptr)}
	return check(C.hipModuleLaunchKernel(kernel, 1, 1, 1, 64, 1, 1, 0, nil, &args[0], nil))
}

// Every DeviceBuffer holds hipMalloc memory.
type DeviceBuffer struct {
	ptr   unsafe.Pointer
	freed bool
}

func NewDeviceBuffer(size int) (*DeviceBuffer, error) { // want NewDeviceBuffer:"initializesHIP"
	b := &DeviceBuffer{}
	if err := check(C.hipMalloc(&b.ptr, C.size_t(size))); err != nil {
		return nil, err
	}
	runtime.SetFinalizer(b, func(b *DeviceBuffer) { b.Free() })
	return b, nil
}

func (b *DeviceBuffer) Free() { // want Free:"initializesHIP"
	if !b.freed {
		C.hipFree(b.ptr)
		b.freed = true
	}
}

func (b *DeviceBuffer) Launch() error { // want Launch:"initializesHIP"
	args := []unsafe.Pointer{unsafe.Pointer(&b.ptr)}
	return check(C.hipModuleLaunchKernel(kernel, 1, 1, 1, 64, 1, 1, 0, nil, &args[0], nil))
}

// Style: host pointers kept as uintptr and converted back and forth.
type HostPtr uintptr

func AllocHost(size int) HostPtr { // want AllocHost:"returnsSystemMemory\\(result=0\\)"
	return HostPtr(uintptr(C.malloc(C.size_t(size))))
}

func LaunchHostPtr(size int) error { // want LaunchHostPtr:"needsXNACK\\(system\\) initializesHIP"
	p := AllocHost(size)
	dp := unsafe.Pointer(uintptr(p))
	args := []unsafe.Pointer{unsafe.Pointer(&dp)}
	return check(C.hipModuleLaunchKernel(kernel, 1, 1, 1, 64, 1, 1, 0, nil, &args[0], nil))
}

func LaunchDevicePtr(size int) error { // want LaunchDevicePtr:"initializesHIP"
	var d unsafe.Pointer
	if err := check(C.hipMalloc(&d, C.size_t(size))); err != nil {
		return err
	}
	p := uintptr(d)
	args := []unsafe.Pointer{unsafe.Pointer(&p)}
	return check(C.hipModuleLaunchKernel(kernel, 1, 1, 1, 64, 1, 1, 0, nil, &args[0], nil))
}

// Style: buffers cached in package-level maps by generated wrappers.
var (
	cacheMu  sync.Mutex
	hostBufs = map[string]unsafe.Pointer{}
	devBufs  = map[string]unsafe.Pointer{}
)

func cachedHost(name string, size int) unsafe.Pointer {
	cacheMu.Lock()
	defer cacheMu.Unlock()
	if p, ok := hostBufs[name]; ok {
		return p
	}
	p := C.malloc(C.size_t(size))
	hostBufs[name] = p
	return p
}

func cachedDevice(name string, size int) unsafe.Pointer {
	cacheMu.Lock()
	defer cacheMu.Unlock()
	if p, ok := devBufs[name]; ok {
		return p
	}
	var p unsafe.Pointer
	C.hipMalloc(&p, C.size_t(size))
	devBufs[name] = p
	return p
}

func LaunchCached(name string) error { // want LaunchCached:"needsXNACK\\(system\\) initializesHIP"
	p := cachedHost(name, 1024)
	args := []unsafe.Pointer{unsafe.Pointer(&p)}
	return check(C.hipModuleLaunchKernel(kernel, 1, 1, 1, 64, 1, 1, 0, nil, &args[0], nil))
}

// LaunchCachedElement reads the cache map directly.
func LaunchCachedElement(name string) error { // want LaunchCachedElement:"needsXNACK\\(system\\) initializesHIP"
	p := hostBufs[name]
	args := []unsafe.Pointer{unsafe.Pointer(&p)}
	return check(C.hipModuleLaunchKernel(kernel, 1, 1, 1, 64, 1, 1, 0, nil, &args[0], nil))
}

func LaunchCachedDevice(name string) error { // want LaunchCachedDevice:"initializesHIP"
	p := cachedDevice(name, 1024)
	q := devBufs[name]
	args := []unsafe.Pointer{unsafe.Pointer(&p), unsafe.Pointer(&q)}
	return check(C.hipModuleLaunchKernel(kernel, 1, 1, 1, 64, 1, 1, 0, nil, &args[0], nil))
}
