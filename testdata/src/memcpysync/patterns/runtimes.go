package patterns

/*
#include <stddef.h>
typedef int hipError_t;
typedef int cudaError_t;
#define D2D 3
hipError_t hipMemcpy(void* dst, const void* src, size_t size, int kind);
hipError_t hipDeviceSynchronize(void);
cudaError_t cudaMemcpy(void* dst, const void* src, size_t count, int kind);
cudaError_t cudaDeviceSynchronize(void);
*/
import "C"

import (
	"errors"
	"unsafe"
)

// Style: an interface over several runtimes, with a HIP and a CUDA
// implementation of the same operations. A call through the interface does
// what every implementation does.
type Runtime interface {
	Copy(dst, src uintptr, size int) error
	Synchronize() error
	Name() string
}

type hipRuntime struct{}

func (hipRuntime) Copy(dst, src uintptr, size int) error { // want Copy:`copiesInto\(hipMemcpy dst=p0\)`
	if C.hipMemcpy(unsafe.Pointer(dst), unsafe.Pointer(src), C.size_t(size), C.D2D) != 0 {
		return errors.New("hipMemcpy failed")
	}
	return nil
}

func (hipRuntime) Synchronize() error { // want Synchronize:`synchronizes\(device\)`
	if C.hipDeviceSynchronize() != 0 {
		return errors.New("hipDeviceSynchronize failed")
	}
	return nil
}

func (hipRuntime) Name() string { return "hip" }

type cudaRuntime struct{}

func (cudaRuntime) Copy(dst, src uintptr, size int) error { // want Copy:`copiesInto\(cudaMemcpy dst=p0\)`
	if C.cudaMemcpy(unsafe.Pointer(dst), unsafe.Pointer(src), C.size_t(size), C.D2D) != 0 {
		return errors.New("cudaMemcpy failed")
	}
	return nil
}

func (cudaRuntime) Synchronize() error { // want Synchronize:`synchronizes\(device\)`
	if C.cudaDeviceSynchronize() != 0 {
		return errors.New("cudaDeviceSynchronize failed")
	}
	return nil
}

func (cudaRuntime) Name() string { return "cuda" }

func pick(useCUDA bool) Runtime {
	if useCUDA {
		return cudaRuntime{}
	}
	return hipRuntime{}
}

func interfaceHazard(useCUDA bool) float32 {
	rt := pick(useCUDA)
	dst, src := alloc(), alloc()
	rt.Copy(uintptr(dst), uintptr(src), n)
	return *(*float32)(dst) // want `this dereference reads dst on the host before the device-to-device copy into it by Copy \(C.hipMemcpy\) is ordered`
}

func interfaceSynced(useCUDA bool) float32 { // want interfaceSynced:`synchronizes\(device\)`
	rt := pick(useCUDA)
	dst, src := alloc(), alloc()
	rt.Copy(uintptr(dst), uintptr(src), n)
	rt.Synchronize()
	return *(*float32)(dst)
}

// Name says nothing about copies or synchronization.
func interfaceNoSync(rt Runtime) float32 {
	dst, src := alloc(), alloc()
	rt.Copy(uintptr(dst), uintptr(src), n)
	_ = rt.Name()
	return *(*float32)(dst) // want `this dereference reads dst on the host before the device-to-device copy into it by Copy`
}
