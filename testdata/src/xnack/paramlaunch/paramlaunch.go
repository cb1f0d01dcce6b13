// Package paramlaunch passes memory to functions that launch kernels on
// their parameters: system memory passed in such a parameter is a use at
// the call, device and pinned memory are not, and a guard on either side
// covers it.
package paramlaunch

// #cgo CFLAGS: -I${SRCDIR}/../../../include
// #include <hip/hip_runtime_api.h>
// #include <stdlib.h>
import "C"

import (
	"runtime"
	"unsafe"

	"xnack/paramlaunchlib"
)

var f C.hipFunction_t

// fill launches the kernel on p.
func fill(p unsafe.Pointer) {
	n := C.uint(4)
	var pin runtime.Pinner
	defer pin.Unpin()
	pin.Pin(&p)
	pin.Pin(&n)
	args := []unsafe.Pointer{unsafe.Pointer(&p), unsafe.Pointer(&n)}
	C.hipModuleLaunchKernel(f, 1, 1, 1, 4, 1, 1, 0, nil, &args[0], nil)
	C.hipDeviceSynchronize()
}

func pageable() bool {
	var on C.int
	C.hipDeviceGetAttribute(&on, C.hipDeviceAttributePageableMemoryAccess, 0)
	return on == 1
}

// Positive: system memory passed to a launching parameter.

func FillSystem() { // want FillSystem:"needsXNACK\\(system\\) initializesHIP"
	p := C.malloc(16)
	defer C.free(p)
	fill(p)
}

// fillOuter hands its parameter on: a wrapper of a wrapper.
func fillOuter(q unsafe.Pointer) { fill(q) }

func FillOuterSystem() { // want FillOuterSystem:"needsXNACK\\(system\\) initializesHIP"
	fillOuter(C.malloc(16))
}

func FillGo() { // want FillGo:"needsXNACK\\(system\\) initializesHIP"
	data := make([]float32, 4)
	fill(unsafe.Pointer(&data[0]))
}

// fillSlice launches on the slice its caller passes.
func fillSlice(data []float32) {
	p := unsafe.Pointer(&data[0])
	args := []unsafe.Pointer{unsafe.Pointer(&p)}
	C.hipModuleLaunchKernel(f, 1, 1, 1, 4, 1, 1, 0, nil, &args[0], nil)
}

func FillSliceGo() { // want FillSliceGo:"needsXNACK\\(system\\) initializesHIP"
	fillSlice(make([]float32, 4))
}

// fillAddr takes the address as a uintptr and converts it back.
func fillAddr(addr uintptr) {
	p := unsafe.Pointer(addr)
	args := []unsafe.Pointer{unsafe.Pointer(&p)}
	C.hipModuleLaunchKernel(f, 1, 1, 1, 4, 1, 1, 0, nil, &args[0], nil)
}

func FillAddrSystem() { // want FillAddrSystem:"needsXNACK\\(system\\) initializesHIP"
	fillAddr(uintptr(C.malloc(16)))
}

// buf holds C.malloc memory in some values and hipMalloc memory in others,
// so its field is system memory only where the value shows it.
type buf struct{ ptr unsafe.Pointer }

func (b *buf) launch() {
	args := []unsafe.Pointer{unsafe.Pointer(&b.ptr)}
	C.hipModuleLaunchKernel(f, 1, 1, 1, 4, 1, 1, 0, nil, &args[0], nil)
}

func LaunchHostBuf() { // want LaunchHostBuf:"needsXNACK\\(system\\) initializesHIP"
	b := &buf{ptr: C.malloc(16)}
	b.launch()
}

func LaunchHostBufStored() { // want LaunchHostBufStored:"needsXNACK\\(system\\) initializesHIP"
	var b buf
	b.ptr = C.malloc(16)
	b.launch()
}

// prefetch prefetches its parameter (and counts as a managed-memory use).
func prefetch(p unsafe.Pointer) {
	C.hipMemPrefetchAsync(p, 16, 0, nil)
}

func PrefetchSystem() { // want PrefetchSystem:"needsXNACK\\(system, managed\\) initializesHIP"
	prefetch(C.malloc(16))
}

// Cross-package: the library's facts.

func LibSystem() { // want LibSystem:"needsXNACK\\(system\\) initializesHIP"
	p := C.malloc(16)
	paramlaunchlib.Fill(p)
}

func LibVia() { // want LibVia:"needsXNACK\\(system\\) initializesHIP"
	paramlaunchlib.FillVia(1, C.malloc(16))
}

func LibBuffer() { // want LibBuffer:"needsXNACK\\(system\\) initializesHIP"
	b := paramlaunchlib.Buffer{Ptr: C.malloc(16), N: 16}
	b.Launch()
}

// Through an interface: a use if any implementation makes it.
type launcher interface{ Launch(p unsafe.Pointer) }

type hipLauncher struct{}

func (hipLauncher) Launch(p unsafe.Pointer) { // want Launch:"launchesParams\\(p0\\) initializesHIP"
	fill(p)
}

type nopLauncher struct{}

func (nopLauncher) Launch(p unsafe.Pointer) {}

func LaunchThrough(l launcher) { // want LaunchThrough:"needsXNACK\\(system\\) initializesHIP"
	l.Launch(C.malloc(16))
}

// Facts of exported wrappers.

// Fill is a wrapper of fill.
func Fill(p unsafe.Pointer) { // want Fill:"launchesParams\\(p0\\) initializesHIP"
	fill(p)
}

// FillLater fills in a deferred closure that captures p.
func FillLater(p unsafe.Pointer) { // want FillLater:"launchesParams\\(p0\\) initializesHIP"
	defer func() { fill(p) }()
}

// FillBoth launches on its second parameter and hands the first on.
func FillBoth(a, b unsafe.Pointer) { // want FillBoth:"launchesParams\\(p0, p1\\) initializesHIP"
	Fill(a)
	fillAddr(uintptr(b))
}

// Negative: device or pinned memory, guards, host-side reads, stores.

func FillDevice() { // want FillDevice:"initializesHIP"
	var d unsafe.Pointer
	C.hipMalloc(&d, 16)
	defer C.hipFree(d)
	fill(d)
}

func FillPinned() { // want FillPinned:"initializesHIP"
	var h unsafe.Pointer
	C.hipHostMalloc(&h, 16, C.hipHostMallocDefault)
	defer C.hipHostFree(h)
	fill(h)
}

func LaunchDevBuf() { // want LaunchDevBuf:"initializesHIP"
	b := &buf{}
	C.hipMalloc(&b.ptr, 16)
	b.launch()
}

// fillGuarded returns early unless the GPU can reach pageable memory.
func fillGuarded(p unsafe.Pointer) {
	if !pageable() {
		return
	}
	fill(p)
}

// FillGuarded guards itself: no parameter flow.
func FillGuarded(p unsafe.Pointer) { // want FillGuarded:"initializesHIP"
	fillGuarded(p)
}

func FillGuardedSystem() { // want FillGuardedSystem:"initializesHIP"
	fillGuarded(C.malloc(16))
}

func FillCallerGuarded() { // want FillCallerGuarded:"initializesHIP"
	if !pageable() {
		return
	}
	p := C.malloc(16)
	fill(p)
}

func LibGuarded() { // want LibGuarded:"initializesHIP"
	paramlaunchlib.FillGuarded(C.malloc(16))
}

func LibDevice() { // want LibDevice:"initializesHIP"
	var d unsafe.Pointer
	C.hipMalloc(&d, 16)
	paramlaunchlib.Fill(d)
	paramlaunchlib.FillVia(1, d)
}

// copyIn reads its parameter on the host (hipMemcpy host-to-device) and
// launches on device memory.
func copyIn(p unsafe.Pointer, n int) {
	var d unsafe.Pointer
	C.hipMalloc(&d, C.size_t(n))
	C.hipMemcpy(d, p, C.size_t(n), C.hipMemcpyHostToDevice)
	fill(d)
}

// CopyIn copies in: no parameter flow.
func CopyIn(p unsafe.Pointer, n int) { // want CopyIn:"initializesHIP"
	copyIn(p, n)
}

func CopySystem() { // want CopySystem:"initializesHIP"
	copyIn(C.malloc(16), 16)
}

var held unsafe.Pointer

// Store only stores its parameter.
func Store(p unsafe.Pointer) {
	held = p
}

func StoreSystem() {
	Store(C.malloc(16))
}

func LaunchThroughDevice(l launcher) { // want LaunchThroughDevice:"initializesHIP"
	var d unsafe.Pointer
	C.hipMalloc(&d, 16)
	l.Launch(d)
}

// fillFloats launches the kernel on p, typed as C floats: the message names
// the argument as written, (*C.float)(buf).
func fillFloats(p *C.float) { fill(unsafe.Pointer(p)) }

func FillFloats() { // want FillFloats:"needsXNACK\\(system\\) initializesHIP"
	buf := C.malloc(16)
	fillFloats((*C.float)(buf))
}
