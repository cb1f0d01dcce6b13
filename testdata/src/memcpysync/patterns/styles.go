// Package patterns holds device-to-device copy hazards and their correct
// twins in the styles real Go GPU code is written in. Every hazard has a twin
// that orders the read after the copy and must stay silent.
package patterns

/*
#include <stddef.h>
typedef int hipError_t;
typedef struct ihipStream_t* hipStream_t;
typedef struct ihipEvent_t* hipEvent_t;
typedef struct ihipModuleSymbol_t* hipFunction_t;
typedef void* hipDeviceptr_t;
#define HIP_OK 0
#define H2D 1
#define D2H 2
#define D2D 3
#define STREAM_NON_BLOCKING 1
hipError_t hipMalloc(void** ptr, size_t size);
hipError_t hipFree(void* ptr);
hipError_t hipMemcpy(void* dst, const void* src, size_t size, int kind);
hipError_t hipMemcpyAsync(void* dst, const void* src, size_t size, int kind, hipStream_t stream);
hipError_t hipMemcpyDtoD(hipDeviceptr_t dst, hipDeviceptr_t src, size_t size);
hipError_t hipDeviceSynchronize(void);
hipError_t hipStreamCreate(hipStream_t* stream);
hipError_t hipStreamCreateWithFlags(hipStream_t* stream, unsigned int flags);
hipError_t hipStreamSynchronize(hipStream_t stream);
hipError_t hipEventCreate(hipEvent_t* event);
hipError_t hipEventRecord(hipEvent_t event, hipStream_t stream);
hipError_t hipEventSynchronize(hipEvent_t event);
hipError_t hipModuleLaunchKernel(hipFunction_t f, unsigned int gx, unsigned int gy, unsigned int gz,
	unsigned int bx, unsigned int by, unsigned int bz, unsigned int shared, hipStream_t stream,
	void** args, void** extra);
*/
import "C"

import (
	"fmt"
	"runtime"
	"sync"
	"unsafe"
)

const n = 1 << 20

func alloc() unsafe.Pointer {
	var p unsafe.Pointer
	C.hipMalloc(&p, n)
	return p
}

// Style: every call wrapped in check().
func check(r C.hipError_t) error {
	if r != C.HIP_OK {
		return fmt.Errorf("hip error %d", int(r))
	}
	return nil
}

func checkHazard() (float32, error) {
	dst, src := alloc(), alloc()
	if err := check(C.hipMemcpy(dst, src, n, C.D2D)); err != nil {
		return 0, err
	}
	return *(*float32)(dst), nil // want `this dereference reads dst on the host before the device-to-device copy into it by C.hipMemcpy is ordered`
}

func checkSynced() (float32, error) {
	dst, src := alloc(), alloc()
	if err := check(C.hipMemcpy(dst, src, n, C.D2D)); err != nil {
		return 0, err
	}
	if err := check(C.hipDeviceSynchronize()); err != nil {
		return 0, err
	}
	return *(*float32)(dst), nil
}

// A blocking device-to-host copy on the null stream is ordered after the
// copy and waits for it: reading what it copied is safe.
func checkBlockingReadBack() (float32, error) {
	dst, src := alloc(), alloc()
	var out float32
	if err := check(C.hipMemcpy(dst, src, n, C.D2D)); err != nil {
		return 0, err
	}
	if err := check(C.hipMemcpy(unsafe.Pointer(&out), dst, 4, C.D2H)); err != nil {
		return 0, err
	}
	return *(*float32)(dst) + out, nil
}

// A host-to-device copy is not a device-to-device copy.
func checkHostToDevice(host []float32) float32 {
	dst := alloc()
	check(C.hipMemcpy(dst, unsafe.Pointer(&host[0]), n, C.H2D))
	return *(*float32)(dst)
}

// Style: the status converted to a type with an error method.
type status C.hipError_t

func (s status) error(what string) error {
	if s != C.HIP_OK {
		return fmt.Errorf("%s: hip error %d", what, int(s))
	}
	return nil
}

func statusHazard() (float32, error) {
	dst, src := alloc(), alloc()
	if err := status(C.hipMemcpyDtoD(C.hipDeviceptr_t(dst), C.hipDeviceptr_t(src), n)).error("copy"); err != nil {
		return 0, err
	}
	return unsafe.Slice((*float32)(dst), 4)[0], nil // want `this index expression reads dst on the host before the device-to-device copy into it by C.hipMemcpyDtoD is ordered`
}

func statusSynced() (float32, error) {
	dst, src := alloc(), alloc()
	if err := status(C.hipMemcpyDtoD(C.hipDeviceptr_t(dst), C.hipDeviceptr_t(src), n)).error("copy"); err != nil {
		return 0, err
	}
	if err := status(C.hipStreamSynchronize(nil)).error("sync"); err != nil {
		return 0, err
	}
	return unsafe.Slice((*float32)(dst), 4)[0], nil
}

// Style: a Result helper that panics on failure.
func Result(r C.hipError_t) {
	if r != C.HIP_OK {
		panic(fmt.Sprintf("hip error %d", int(r)))
	}
}

func resultHazard(out []float32) {
	dst, src := alloc(), alloc()
	Result(C.hipMemcpy(dst, src, n, C.D2D))
	copy(out, unsafe.Slice((*float32)(dst), len(out))) // want `copy reads dst on the host before the device-to-device copy into it by C.hipMemcpy is ordered`
}

func resultSynced(out []float32) {
	dst, src := alloc(), alloc()
	Result(C.hipMemcpy(dst, src, n, C.D2D))
	var ev C.hipEvent_t
	Result(C.hipEventCreate(&ev))
	Result(C.hipEventRecord(ev, nil))
	Result(C.hipEventSynchronize(ev))
	copy(out, unsafe.Slice((*float32)(dst), len(out)))
}

// Style: every call runs on a locked OS thread through ctx.Do. The closure
// runs during the call, on the caller's variables.
type Context struct{ mu sync.Mutex }

func (c *Context) Do(fn func() error) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	return fn()
}

func ctxDoHazard(ctx *Context) (float32, error) {
	dst, src := alloc(), alloc()
	if err := ctx.Do(func() error { return check(C.hipMemcpy(dst, src, n, C.D2D)) }); err != nil {
		return 0, err
	}
	return *(*float32)(dst), nil // want `this dereference reads dst on the host before the device-to-device copy into it by C.hipMemcpy is ordered`
}

func ctxDoSynced(ctx *Context) (float32, error) {
	dst, src := alloc(), alloc()
	err := ctx.Do(func() error {
		if err := check(C.hipMemcpy(dst, src, n, C.D2D)); err != nil {
			return err
		}
		return check(C.hipDeviceSynchronize())
	})
	if err != nil {
		return 0, err
	}
	return *(*float32)(dst), nil
}

func ctxDoReadInside(ctx *Context) (v float32) {
	dst, src := alloc(), alloc()
	ctx.Do(func() error { return check(C.hipMemcpy(dst, src, n, C.D2D)) })
	ctx.Do(func() error {
		v = *(*float32)(dst) // want `this dereference reads dst on the host before the device-to-device copy into it by C.hipMemcpy is ordered`
		return nil
	})
	return v
}

func ctxDoSyncedSeparately(ctx *Context) (v float32) { // want ctxDoSyncedSeparately:`synchronizes\(device\)`
	dst, src := alloc(), alloc()
	ctx.Do(func() error { return check(C.hipMemcpy(dst, src, n, C.D2D)) })
	ctx.Do(func() error { return check(C.hipDeviceSynchronize()) })
	ctx.Do(func() error {
		v = *(*float32)(dst)
		return nil
	})
	return v
}

// A goroutine's closure runs later, not in place: the read in it races.
func goroutineAfterCopy(done chan float32) {
	dst, src := alloc(), alloc()
	check(C.hipMemcpy(dst, src, n, C.D2D))
	go func() { done <- *(*float32)(dst) }() // want `the goroutine started here reads dst concurrently with the copy`
}

// Style: a Buffer type with a freed flag, Free/Close methods and a
// finalizer.
type Buffer struct {
	ptr   unsafe.Pointer
	size  int
	freed bool
}

func NewBuffer(size int) (*Buffer, error) {
	b := &Buffer{size: size}
	if err := check(C.hipMalloc(&b.ptr, C.size_t(size))); err != nil {
		return nil, err
	}
	runtime.SetFinalizer(b, (*Buffer).Free)
	return b, nil
}

func (b *Buffer) Free() {
	if !b.freed {
		C.hipFree(b.ptr)
		b.freed = true
	}
}

func (b *Buffer) Close() error {
	if b.freed {
		return nil
	}
	b.freed = true
	runtime.SetFinalizer(b, nil)
	return check(C.hipFree(b.ptr))
}

// CopyFrom copies device memory and returns before it lands.
func (b *Buffer) CopyFrom(src *Buffer) error { // want CopyFrom:`copiesInto\(hipMemcpy dst=r.ptr\)`
	return check(C.hipMemcpy(b.ptr, src.ptr, C.size_t(b.size), C.D2D))
}

// Float32s reads the buffer on the host.
func (b *Buffer) Float32s() []float32 { // want Float32s:`readsParams\[-1\.ptr\]`
	if b.freed {
		return nil
	}
	out := make([]float32, b.size/4)
	copy(out, unsafe.Slice((*float32)(b.ptr), len(out)))
	return out
}

// Sync waits for the device.
func (b *Buffer) Sync() error { // want Sync:`synchronizes\(device\)`
	return check(C.hipDeviceSynchronize())
}

// Ptr returns the device address.
func (b *Buffer) Ptr() unsafe.Pointer { return b.ptr }

// Raw code copies through the getter.
func getterHazard() float32 {
	dst, _ := NewBuffer(n)
	src, _ := NewBuffer(n)
	check(C.hipMemcpy(dst.Ptr(), src.Ptr(), n, C.D2D))
	return *(*float32)(dst.Ptr()) // want `this dereference reads dst.ptr on the host before the device-to-device copy into it by C.hipMemcpy is ordered`
}

func getterSynced() float32 { // want getterSynced:`synchronizes\(device\)`
	dst, _ := NewBuffer(n)
	src, _ := NewBuffer(n)
	check(C.hipMemcpy(dst.Ptr(), src.Ptr(), n, C.D2D))
	check(C.hipDeviceSynchronize())
	return *(*float32)(dst.Ptr())
}

func bufferHazard() []float32 {
	dst, _ := NewBuffer(n)
	src, _ := NewBuffer(n)
	defer dst.Close()
	defer src.Close()
	dst.CopyFrom(src)
	return dst.Float32s() // want `Float32s reads dst\.ptr on the host before the device-to-device copy into it by CopyFrom \(C.hipMemcpy\) is ordered`
}

func bufferSynced() []float32 { // want bufferSynced:`synchronizes\(device\)`
	dst, _ := NewBuffer(n)
	src, _ := NewBuffer(n)
	defer dst.Close()
	defer src.Close()
	dst.CopyFrom(src)
	dst.Sync()
	return dst.Float32s()
}

// A finalizer runs when the collector gets to it, not where it is set: its
// synchronize orders nothing here.
func finalizerDoesNotSync() float32 {
	dst, src := alloc(), alloc()
	check(C.hipMemcpy(dst, src, n, C.D2D))
	b := &Buffer{ptr: dst, size: n}
	runtime.SetFinalizer(b, func(b *Buffer) {
		check(C.hipDeviceSynchronize())
		b.Free()
	})
	return *(*float32)(dst) // want `this dereference reads dst on the host before the device-to-device copy into it by C.hipMemcpy is ordered`
}

// Style: device pointers kept as uintptr and converted back and forth.
type DevPtr uintptr

func allocPtr() DevPtr {
	p := alloc()
	return DevPtr(uintptr(p))
}

func uintptrHazard() float32 {
	dst, src := allocPtr(), allocPtr()
	check(C.hipMemcpy(unsafe.Pointer(uintptr(dst)), unsafe.Pointer(uintptr(src)), n, C.D2D))
	return *(*float32)(unsafe.Pointer(dst)) // want `this dereference reads dst on the host before the device-to-device copy into it by C.hipMemcpy is ordered`
}

func uintptrSynced() float32 { // want uintptrSynced:`synchronizes\(device\)`
	dst, src := allocPtr(), allocPtr()
	check(C.hipMemcpy(unsafe.Pointer(uintptr(dst)), unsafe.Pointer(uintptr(src)), n, C.D2D))
	check(C.hipDeviceSynchronize())
	return *(*float32)(unsafe.Pointer(dst))
}

// CopyD2D copies between device pointers held as uintptr.
func CopyD2D(dst, src uintptr, size int) error { // want CopyD2D:`copiesInto\(hipMemcpy dst=p0\)`
	return check(C.hipMemcpy(unsafe.Pointer(dst), unsafe.Pointer(src), C.size_t(size), C.D2D))
}

// The copy goes through the uintptr view; the read through the pointer.
func uintptrRoundTripHazard() float32 {
	p, q := alloc(), alloc()
	h := uintptr(p)
	CopyD2D(h, uintptr(q), n)
	return *(*float32)(p) // want `this dereference reads p on the host before the device-to-device copy into it by CopyD2D \(C.hipMemcpy\) is ordered`
}

func uintptrRoundTripSynced() float32 { // want uintptrRoundTripSynced:`synchronizes\(device\)`
	p, q := alloc(), alloc()
	h := uintptr(p)
	CopyD2D(h, uintptr(q), n)
	check(C.hipDeviceSynchronize())
	return *(*float32)(p)
}

// Style: streams. Work on the copy's own stream is ordered after it; a
// blocking stream is ordered after a null-stream copy, a non-blocking one
// is not.
type Stream struct {
	s C.hipStream_t // want s:"nonBlockingStream"
}

func NewStream() (*Stream, error) {
	st := &Stream{}
	if err := check(C.hipStreamCreateWithFlags(&st.s, C.STREAM_NON_BLOCKING)); err != nil {
		return nil, err
	}
	return st, nil
}

// CopyAsync copies device memory on the stream.
func (st *Stream) CopyAsync(dst, src unsafe.Pointer, size int) error { // want CopyAsync:`copiesInto\(hipMemcpyAsync dst=p0 stream=r.s\)`
	return check(C.hipMemcpyAsync(dst, src, C.size_t(size), C.D2D, st.s))
}

// Synchronize waits for the stream.
func (st *Stream) Synchronize() error { // want Synchronize:`synchronizes\(r.s\)`
	return check(C.hipStreamSynchronize(st.s))
}

var kernel C.hipFunction_t

func sameStreamLaunch(st *Stream) error {
	dst, src := alloc(), alloc()
	if err := st.CopyAsync(dst, src, n); err != nil {
		return err
	}
	args := []unsafe.Pointer{unsafe.Pointer(&dst)}
	return check(C.hipModuleLaunchKernel(kernel, 1, 1, 1, 64, 1, 1, 0, st.s, &args[0], nil))
}

func otherStreamLaunch(st, other *Stream) error {
	dst, src := alloc(), alloc()
	if err := st.CopyAsync(dst, src, n); err != nil {
		return err
	}
	args := []unsafe.Pointer{unsafe.Pointer(&dst)}
	return check(C.hipModuleLaunchKernel(kernel, 1, 1, 1, 64, 1, 1, 0, other.s, &args[0], nil)) // want `C.hipModuleLaunchKernel reads dst on a non-blocking stream \(it does not wait for other streams\) before the device-to-device copy into it by CopyAsync \(C.hipMemcpyAsync\) is ordered`
}

func streamSynced(st *Stream) (float32, error) {
	dst, src := alloc(), alloc()
	if err := st.CopyAsync(dst, src, n); err != nil {
		return 0, err
	}
	if err := st.Synchronize(); err != nil {
		return 0, err
	}
	return *(*float32)(dst), nil
}

func blockingStreamAfterNullCopy(ctx *Context) error {
	var s C.hipStream_t
	if err := check(C.hipStreamCreate(&s)); err != nil {
		return err
	}
	dst, src := alloc(), alloc()
	check(C.hipMemcpy(dst, src, n, C.D2D))
	args := []unsafe.Pointer{unsafe.Pointer(&dst)}
	return ctx.Do(func() error {
		return check(C.hipModuleLaunchKernel(kernel, 1, 1, 1, 64, 1, 1, 0, s, &args[0], nil))
	})
}

func nonBlockingStreamAfterNullCopy(ctx *Context) error {
	var s C.hipStream_t
	if err := check(C.hipStreamCreateWithFlags(&s, C.STREAM_NON_BLOCKING)); err != nil {
		return err
	}
	dst, src := alloc(), alloc()
	check(C.hipMemcpy(dst, src, n, C.D2D))
	args := []unsafe.Pointer{unsafe.Pointer(&dst)}
	return ctx.Do(func() error {
		return check(C.hipModuleLaunchKernel(kernel, 1, 1, 1, 64, 1, 1, 0, s, &args[0], nil)) // want `C.hipModuleLaunchKernel reads dst on a non-blocking stream`
	})
}

// Style: buffers cached in a package-level map by generated wrappers.
var (
	buffersMu sync.Mutex
	buffers   = map[string]unsafe.Pointer{}
)

func cachedBuffer(name string) unsafe.Pointer {
	buffersMu.Lock()
	defer buffersMu.Unlock()
	if p, ok := buffers[name]; ok {
		return p
	}
	p := alloc()
	buffers[name] = p
	return p
}

func mapLocalHazard() float32 {
	dst, src := cachedBuffer("y"), cachedBuffer("x")
	check(C.hipMemcpy(dst, src, n, C.D2D))
	return *(*float32)(dst) // want `this dereference reads dst on the host before the device-to-device copy into it by C.hipMemcpy is ordered`
}

func mapLocalSynced() float32 { // want mapLocalSynced:`synchronizes\(device\)`
	dst, src := cachedBuffer("y"), cachedBuffer("x")
	check(C.hipMemcpy(dst, src, n, C.D2D))
	check(C.hipDeviceSynchronize())
	return *(*float32)(dst)
}

func mapElementHazard() float32 { // want mapElementHazard:`copiesInto\(hipMemcpy dst=g.buffers\["y"\]\)`
	check(C.hipMemcpy(buffers["y"], buffers["x"], n, C.D2D))
	return *(*float32)(buffers["y"]) // want `this dereference reads buffers\["y"\] on the host before the device-to-device copy into it by C.hipMemcpy is ordered`
}

func mapElementSynced() float32 { // want mapElementSynced:`synchronizes\(device\)`
	check(C.hipMemcpy(buffers["y"], buffers["x"], n, C.D2D))
	check(C.hipDeviceSynchronize())
	return *(*float32)(buffers["y"])
}

// Another element of the map is other memory.
func mapOtherElement() float32 { // want mapOtherElement:`copiesInto\(hipMemcpy dst=g.buffers\["y"\]\)`
	check(C.hipMemcpy(buffers["y"], buffers["x"], n, C.D2D))
	return *(*float32)(buffers["z"])
}

// A generated wrapper copies between cached buffers by name: its callers
// read the cache.
func copyCached(dst, src string) error { // want copyCached:`copiesInto\(hipMemcpy dst=g.buffers\[p0\]\)`
	return check(C.hipMemcpy(buffers[dst], buffers[src], n, C.D2D))
}

func mapWrapperHazard() float32 { // want mapWrapperHazard:`copiesInto\(hipMemcpy dst=g.buffers\["y"\]\)`
	copyCached("y", "x")
	return *(*float32)(buffers["y"]) // want `this dereference reads buffers\["y"\] on the host before the device-to-device copy into it by copyCached \(C.hipMemcpy\) is ordered`
}

func mapWrapperSynced() float32 { // want mapWrapperSynced:`synchronizes\(device\)`
	copyCached("y", "x")
	check(C.hipDeviceSynchronize())
	return *(*float32)(buffers["y"])
}

func mapWrapperOtherElement() float32 { // want mapWrapperOtherElement:`copiesInto\(hipMemcpy dst=g.buffers\["y"\]\)`
	copyCached("y", "x")
	return *(*float32)(buffers["x"])
}
