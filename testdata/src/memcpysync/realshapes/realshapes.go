// Package realshapes holds copy-sync shapes of real code that live in one
// package: method values in struct fields, copy kinds chosen at run time,
// view accessors and copies on one device read on another.
package realshapes

// #cgo CFLAGS: -I${SRCDIR}/../../../include
// #include <hip/hip_runtime_api.h>
import "C"

import "unsafe"

var pool [4]unsafe.Pointer

func buffers() (dst, src unsafe.Pointer) { return pool[0], pool[1] }

// Device is a device handle.
type Device struct{ id C.int }

// Synchronize waits for the current device.
func (d *Device) Synchronize() error { // want Synchronize:`synchronizes\(device\)`
	C.hipDeviceSynchronize()
	return nil
}

func copyD2D(dst, src unsafe.Pointer, n int) error { // want copyD2D:`copiesInto\(hipMemcpy dst=p0\)`
	C.hipMemcpy(dst, src, C.size_t(n), C.hipMemcpyDeviceToDevice)
	return nil
}

// Ops holds the operations as function values, set once.
type Ops struct {
	sync func() error
	copy func(dst, src unsafe.Pointer, n int) error
}

func newOps(d *Device) *Ops {
	return &Ops{sync: d.Synchronize, copy: copyD2D}
}

func syncThroughField(o *Ops) float32 { // want syncThroughField:`synchronizes\(device\)`
	dst, src := buffers()
	C.hipMemcpy(dst, src, 256, C.hipMemcpyDeviceToDevice)
	o.sync()
	return *(*float32)(dst)
}

func copyThroughField(o *Ops) float32 {
	dst, src := buffers()
	o.copy(dst, src, 256)
	return *(*float32)(dst) // want `this dereference reads dst on the host before the device-to-device copy into it by copyD2D \(C.hipMemcpy\)`
}

func copyThroughFieldSynced(o *Ops) float32 { // want copyThroughFieldSynced:`synchronizes\(device\)`
	dst, src := buffers()
	o.copy(dst, src, 256)
	o.sync()
	return *(*float32)(dst)
}

// The copy kind comes from a switch.
func kindFromSwitch(toHost bool) float32 {
	dst, src := buffers()
	var kind C.hipMemcpyKind
	switch {
	case toHost:
		kind = C.hipMemcpyDeviceToHost
	default:
		kind = C.hipMemcpyDeviceToDevice
	}
	C.hipMemcpy(dst, src, 256, kind)
	return *(*float32)(dst) // want `this dereference reads dst on the host before the device-to-device copy into it by C.hipMemcpy`
}

// Every kind that reaches the copy is host-to-device: no device-to-device copy.
func kindFromSwitchHost(pinned bool) float32 {
	dst, src := buffers()
	var kind C.hipMemcpyKind
	switch {
	case pinned:
		kind = C.hipMemcpyHostToDevice
	default:
		kind = C.hipMemcpyHostToDevice
	}
	C.hipMemcpy(dst, src, 256, kind)
	return *(*float32)(dst)
}

// A variable known to be device-to-device.
func kindVariable() float32 {
	dst, src := buffers()
	kind := C.hipMemcpyKind(C.hipMemcpyDeviceToDevice)
	C.hipMemcpy(dst, src, 256, kind)
	return *(*float32)(dst) // want `this dereference reads dst on the host`
}

// Buffer is device memory with a host view.
type Buffer struct {
	ptr unsafe.Pointer
	n   int
}

// Values views the buffer's memory as a slice.
func (b *Buffer) Values() []float32 {
	return unsafe.Slice((*float32)(b.ptr), b.n)
}

var bufA, bufB = &Buffer{}, &Buffer{}

func viewRead() float32 {
	b, src := bufA, bufB
	C.hipMemcpy(b.ptr, src.ptr, 256, C.hipMemcpyDeviceToDevice)
	for _, v := range b.Values() { // want `this range loop reads b.ptr on the host`
		return v
	}
	return b.Values()[0] // want `this index expression reads b.ptr on the host`
}

func viewReadSynced() float32 { // want viewReadSynced:`synchronizes\(device\)`
	b, src := bufA, bufB
	C.hipMemcpy(b.ptr, src.ptr, 256, C.hipMemcpyDeviceToDevice)
	C.hipDeviceSynchronize()
	return b.Values()[0]
}

var fn C.hipFunction_t

// A copy on device 0, a kernel on device 1's null stream: not ordered.
func otherDeviceKernel() { // want otherDeviceKernel:`setsDevice\(c:1\)`
	dst, src := buffers()
	C.hipSetDevice(0)
	C.hipMemcpy(dst, src, 256, C.hipMemcpyDeviceToDevice)
	C.hipSetDevice(1)
	args := []unsafe.Pointer{unsafe.Pointer(&dst)}
	C.hipModuleLaunchKernel(fn, 1, 1, 1, 64, 1, 1, 0, nil, &args[0], nil) // want `C.hipModuleLaunchKernel reads dst on device 1 while the copy runs on device 0`
}

// The same device: ordered on its null stream.
func sameDeviceKernel() { // want sameDeviceKernel:`setsDevice\(c:1\)`
	dst, src := buffers()
	C.hipSetDevice(1)
	C.hipMemcpy(dst, src, 256, C.hipMemcpyDeviceToDevice)
	args := []unsafe.Pointer{unsafe.Pointer(&dst)}
	C.hipModuleLaunchKernel(fn, 1, 1, 1, 64, 1, 1, 0, nil, &args[0], nil)
}

// SetDevice makes a device current.
func SetDevice(id int) error { // want SetDevice:`setsDevice\(p0\)`
	C.hipSetDevice(C.int(id))
	return nil
}

// GPU is one device.
type GPU struct{ id C.int }

// Use makes the GPU current.
func (g *GPU) Use() { // want Use:`setsDevice\(r.id\)`
	C.hipSetDevice(g.id)
}

var gpus = [2]*GPU{{id: 0}, {id: 1}}

// The device is switched through wrappers: the kernel runs on device 1's
// null stream, which is not ordered after device 0's copy.
func otherDeviceThroughWrapper() { // want otherDeviceThroughWrapper:`setsDevice\(c:1\)`
	dst, src := buffers()
	SetDevice(0)
	C.hipMemcpy(dst, src, 256, C.hipMemcpyDeviceToDevice)
	SetDevice(1)
	args := []unsafe.Pointer{unsafe.Pointer(&dst)}
	C.hipModuleLaunchKernel(fn, 1, 1, 1, 64, 1, 1, 0, nil, &args[0], nil) // want `C.hipModuleLaunchKernel reads dst on device 1 while the copy runs on device 0`
}

func otherGPUThroughMethod() {
	dst, src := buffers()
	a, b := gpus[0], gpus[1]
	a.Use()
	C.hipMemcpy(dst, src, 256, C.hipMemcpyDeviceToDevice)
	b.Use()
	args := []unsafe.Pointer{unsafe.Pointer(&dst)}
	C.hipModuleLaunchKernel(fn, 1, 1, 1, 64, 1, 1, 0, nil, &args[0], nil) // want `C.hipModuleLaunchKernel reads dst on device b.id while the copy runs on device a.id`
}

// Back on the copying device before the launch: ordered.
func backOnCopyingDevice() {
	dst, src := buffers()
	a := gpus[0]
	a.Use()
	C.hipMemcpy(dst, src, 256, C.hipMemcpyDeviceToDevice)
	SetDevice(1)
	a.Use()
	args := []unsafe.Pointer{unsafe.Pointer(&dst)}
	C.hipModuleLaunchKernel(fn, 1, 1, 1, 64, 1, 1, 0, nil, &args[0], nil)
}

func copyKind(dst, src unsafe.Pointer, kind C.hipMemcpyKind) { // want copyKind:`copiesInto\(hipMemcpy dst=p0 kind=p2\)`
	C.hipMemcpy(dst, src, 256, kind)
}

// The kind picked by a switch, passed to a wrapper.
func kindSwitchThroughWrapper(toHost bool) float32 {
	dst, src := buffers()
	kind := C.hipMemcpyKind(C.hipMemcpyDeviceToHost)
	if !toHost {
		kind = C.hipMemcpyDeviceToDevice
	}
	copyKind(dst, src, kind)
	return *(*float32)(dst) // want `this dereference reads dst on the host before the device-to-device copy into it by copyKind \(C.hipMemcpy\)`
}

func kindHostThroughWrapper(pinned bool) float32 {
	dst, src := buffers()
	kind := C.hipMemcpyKind(C.hipMemcpyHostToDevice)
	if pinned {
		kind = C.hipMemcpyHostToDevice
	}
	copyKind(dst, src, kind)
	return *(*float32)(dst)
}

// Handles as uintptr newtypes.
type (
	Stream uintptr
	Event  uintptr
)

func (s Stream) Synchronize() error { // want Synchronize:`synchronizes\(r\)`
	C.hipStreamSynchronize(C.hipStream_t(unsafe.Pointer(s)))
	return nil
}

func (e Event) Record(s Stream) { // want Record:`eventOps\(record r on p0\)`
	C.hipEventRecord(C.hipEvent_t(unsafe.Pointer(e)), C.hipStream_t(unsafe.Pointer(s)))
}

func (s Stream) Wait(e Event) { // want Wait:`eventOps\(wait p0 on r\)`
	C.hipStreamWaitEvent(C.hipStream_t(unsafe.Pointer(s)), C.hipEvent_t(unsafe.Pointer(e)), 0)
}

var (
	stA, stB Stream
	evA      Event
)

func newStreams() { // want newStreams:`setsDevice\(c:0\)`
	C.hipSetDevice(0)
	C.hipStreamCreateWithFlags((*C.hipStream_t)(unsafe.Pointer(&stA)), C.hipStreamNonBlocking)
	C.hipStreamCreateWithFlags((*C.hipStream_t)(unsafe.Pointer(&stB)), C.hipStreamNonBlocking)
}

func namedStreamSync() float32 {
	dst, src := buffers()
	s := stA
	C.hipMemcpyAsync(dst, src, 256, C.hipMemcpyDeviceToDevice, C.hipStream_t(unsafe.Pointer(s)))
	s.Synchronize()
	return *(*float32)(dst)
}

func namedStreamNoSync() float32 {
	dst, src := buffers()
	s := stA
	C.hipMemcpyAsync(dst, src, 256, C.hipMemcpyDeviceToDevice, C.hipStream_t(unsafe.Pointer(s)))
	return *(*float32)(dst) // want `this dereference reads dst on the host before the device-to-device copy into it by C.hipMemcpyAsync`
}

func namedEventWait() {
	dst, src := buffers()
	a, b, ev := stA, stB, evA
	C.hipMemcpyAsync(dst, src, 256, C.hipMemcpyDeviceToDevice, C.hipStream_t(unsafe.Pointer(a)))
	ev.Record(a)
	b.Wait(ev)
	args := []unsafe.Pointer{unsafe.Pointer(&dst)}
	C.hipModuleLaunchKernel(fn, 1, 1, 1, 64, 1, 1, 0, C.hipStream_t(unsafe.Pointer(b)), &args[0], nil)
}

func namedEventNoWait() {
	dst, src := buffers()
	a, b, ev := stA, stB, evA
	C.hipMemcpyAsync(dst, src, 256, C.hipMemcpyDeviceToDevice, C.hipStream_t(unsafe.Pointer(a)))
	ev.Record(a)
	args := []unsafe.Pointer{unsafe.Pointer(&dst)}
	C.hipModuleLaunchKernel(fn, 1, 1, 1, 64, 1, 1, 0, C.hipStream_t(unsafe.Pointer(b)), &args[0], nil) // want `C.hipModuleLaunchKernel reads dst on a different stream than the copy's`
}

// Downloader reads device memory back; its one implementation here does so
// on a non-blocking stream.
type Downloader interface {
	Download(out []float32, p unsafe.Pointer)
}

var nbStream C.hipStream_t // want nbStream:"nonBlockingStream"

func initNB() {
	C.hipStreamCreateWithFlags(&nbStream, C.hipStreamNonBlocking)
}

type asyncDownloader struct{}

func (asyncDownloader) Download(out []float32, p unsafe.Pointer) { // want Download:`deviceReads\(p1 on nonblocking@\?\)`
	C.hipMemcpyAsync(unsafe.Pointer(&out[0]), p, C.size_t(4*len(out)), C.hipMemcpyDeviceToHost, nbStream)
}

func downloadThroughInterface(d Downloader) {
	dst, src := buffers()
	out := make([]float32, 64)
	C.hipMemcpy(dst, src, 256, C.hipMemcpyDeviceToDevice)
	d.Download(out, dst) // want `Download reads dst on a non-blocking stream`
}

// onDevice switches to id and restores the previous device when it returns.
func onDevice(id int, work func()) {
	var prev C.int
	C.hipGetDevice(&prev)
	defer C.hipSetDevice(prev)
	C.hipSetDevice(C.int(id))
	work()
}

func afterOnDevice() {
	dst, src := buffers()
	C.hipMemcpy(dst, src, 256, C.hipMemcpyDeviceToDevice)
	onDevice(1, func() {})
	args := []unsafe.Pointer{unsafe.Pointer(&dst)}
	C.hipModuleLaunchKernel(fn, 1, 1, 1, 64, 1, 1, 0, nil, &args[0], nil)
}
