// Package hazards holds reads of a device-to-device copy's destination that
// are not ordered after the copy (HIP runtime).
package hazards

// #cgo CFLAGS: -I${SRCDIR}/../../../include
// #include <hip/hip_runtime_api.h>
// #include <string.h>
import "C"

import (
	"fmt"
	"unsafe"
)

const n = 1 << 20

func alloc() unsafe.Pointer {
	var p unsafe.Pointer
	C.hipMalloc(&p, n)
	return p
}

func hostDeref() {
	dst, src := alloc(), alloc()
	C.hipMemcpy(dst, src, n, C.hipMemcpyDeviceToDevice)
	fmt.Println(*(*float32)(dst)) // want `this dereference reads dst on the host before the device-to-device copy into it by C.hipMemcpy is ordered: the copy returns before the data lands; call C.hipDeviceSynchronize\(\)`
}

func sliceIndex() float32 {
	dst, src := alloc(), alloc()
	out := unsafe.Slice((*float32)(dst), 4)
	C.hipMemcpy(dst, src, n, C.hipMemcpyDeviceToDevice)
	return out[0] // want `this index expression reads out on the host before`
}

func rangeOverAlias() (sum float32) {
	dst, src := alloc(), alloc()
	C.hipMemcpyDtoD(C.hipDeviceptr_t(dst), C.hipDeviceptr_t(src), n)
	for _, v := range unsafe.Slice((*float32)(dst), 4) { // want `this range loop reads dst on the host before the device-to-device copy into it by C.hipMemcpyDtoD`
		sum += v
	}
	return sum
}

func builtinCopy(out []byte) {
	dst, src := alloc(), alloc()
	C.hipMemcpy(dst, src, n, C.hipMemcpyDeviceToDevice)
	copy(out, unsafe.Slice((*byte)(dst), len(out))) // want `copy reads dst on the host`
}

func cMemcpy(out []byte) {
	dst, src := alloc(), alloc()
	C.hipMemcpy(dst, src, n, C.hipMemcpyDefault)
	C.memcpy(unsafe.Pointer(&out[0]), dst, C.size_t(len(out))) // want `C.memcpy reads dst on the host`
}

func goBytes() []byte {
	dst, src := alloc(), alloc()
	C.hipMemcpy(dst, src, n, C.hipMemcpyDeviceToDevice)
	return C.GoBytes(dst, 16) // want `C.GoBytes reads dst on the host`
}

func kindInVariable() float32 {
	dst, src := alloc(), alloc()
	kind := C.hipMemcpyKind(C.hipMemcpyDeviceToDevice)
	C.hipMemcpy(dst, src, n, kind)
	return *(*float32)(dst) // want `this dereference reads dst on the host`
}

func nonBlockingStream(host []float32) {
	dst, src := alloc(), alloc()
	var s C.hipStream_t
	C.hipStreamCreateWithFlags(&s, C.hipStreamNonBlocking)
	C.hipMemcpy(dst, src, n, C.hipMemcpyDeviceToDevice)
	C.hipMemcpyDtoHAsync(unsafe.Pointer(&host[0]), C.hipDeviceptr_t(dst), n, s) // want `C.hipMemcpyDtoHAsync reads dst on a non-blocking stream \(it does not wait for other streams\)`
	C.hipStreamSynchronize(s)
}

func launchOnOtherDevice(f C.hipFunction_t) { // want launchOnOtherDevice:`setsDevice\(c:1\)`
	C.hipSetDevice(0)
	dst, src := alloc(), alloc()
	C.hipMemcpy(dst, src, n, C.hipMemcpyDeviceToDevice)
	C.hipSetDevice(1)
	args := []unsafe.Pointer{unsafe.Pointer(&dst)}
	C.hipModuleLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, nil, &args[0], nil) // want `C.hipModuleLaunchKernel reads dst on device 1 while the copy runs on device 0`
}

func syncOnOneBranch(verbose bool) float32 {
	dst, src := alloc(), alloc()
	C.hipMemcpy(dst, src, n, C.hipMemcpyDeviceToDevice)
	if verbose {
		C.hipDeviceSynchronize()
	}
	return *(*float32)(dst) // want `this dereference reads dst on the host`
}

func syncOnOtherDevice() float32 { // want syncOnOtherDevice:`setsDevice\(c:1\)`
	C.hipSetDevice(0)
	dst, src := alloc(), alloc()
	C.hipMemcpy(dst, src, n, C.hipMemcpyDeviceToDevice)
	C.hipSetDevice(1)
	C.hipDeviceSynchronize() // synchronizes device 1 only
	return *(*float32)(dst)  // want `this dereference reads dst on the host`
}

func goroutineRead(done chan float32) { // want goroutineRead:`synchronizes\(device\)`
	dst, src := alloc(), alloc()
	C.hipMemcpy(dst, src, n, C.hipMemcpyDeviceToDevice)
	go func() {
		done <- *(*float32)(dst) // want `the goroutine started here reads dst concurrently with the copy`
	}()
	C.hipDeviceSynchronize()
}

func peerCopy() float32 {
	dst, src := alloc(), alloc()
	C.hipMemcpyPeer(dst, 1, src, 0, n)
	return *(*float32)(dst) // want `reads dst on the host before the device-to-device copy into it by C.hipMemcpyPeer`
}

func chainedOnNonBlocking() { // want chainedOnNonBlocking:`synchronizes\(device\)`
	a, b, c := alloc(), alloc(), alloc()
	var s C.hipStream_t
	C.hipStreamCreateWithFlags(&s, C.hipStreamNonBlocking)
	C.hipMemcpy(b, a, n, C.hipMemcpyDeviceToDevice)
	C.hipMemcpyAsync(c, b, n, C.hipMemcpyDeviceToDevice, s) // want `C.hipMemcpyAsync reads b on a non-blocking stream`
	C.hipDeviceSynchronize()
}

func withStream() float32 {
	dst, src := alloc(), alloc()
	var s C.hipStream_t
	C.hipStreamCreate(&s)
	C.hipMemcpyWithStream(dst, src, n, C.hipMemcpyDeviceToDevice, s)
	return *(*float32)(dst) // want `reads dst on the host before the device-to-device copy into it by C.hipMemcpyWithStream`
}

// Async forms: HL1002.

func asyncOtherBlockingStream(f C.hipFunction_t) {
	dst, src := alloc(), alloc()
	var s1, s2 C.hipStream_t
	C.hipStreamCreate(&s1)
	C.hipStreamCreate(&s2)
	C.hipMemcpyAsync(dst, src, n, C.hipMemcpyDeviceToDevice, s1)
	args := []unsafe.Pointer{unsafe.Pointer(&dst)}
	C.hipModuleLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, s2, &args[0], nil) // want `C.hipModuleLaunchKernel reads dst on a different stream than the copy's before the device-to-device copy into it by C.hipMemcpyAsync is ordered: synchronize the copy's stream first`
}

func asyncHostRead() float32 {
	dst, src := alloc(), alloc()
	var s C.hipStream_t
	C.hipStreamCreate(&s)
	C.hipMemcpyDtoDAsync(C.hipDeviceptr_t(dst), C.hipDeviceptr_t(src), n, s)
	return *(*float32)(dst) // want `reads dst on the host before the device-to-device copy into it by C.hipMemcpyDtoDAsync`
}

func asyncPeerStreamSyncElsewhere() float32 {
	dst, src := alloc(), alloc()
	var s, other C.hipStream_t
	C.hipStreamCreate(&s)
	C.hipStreamCreate(&other)
	C.hipMemcpyPeerAsync(dst, 1, src, 0, n, s)
	C.hipStreamSynchronize(other)
	return *(*float32)(dst) // want `reads dst on the host before the device-to-device copy into it by C.hipMemcpyPeerAsync`
}

// A stream kept in a struct field, created non-blocking in another function.

type worker struct {
	stream C.hipStream_t // want stream:"nonBlockingStream"
	fn     C.hipFunction_t
}

func newWorker() *worker {
	w := &worker{}
	C.hipStreamCreateWithFlags(&w.stream, C.hipStreamNonBlocking)
	return w
}

func (w *worker) refresh(dst, src unsafe.Pointer) { // want refresh:`copiesInto\(hipMemcpy dst=p0\)`
	C.hipMemcpy(dst, src, n, C.hipMemcpyDeviceToDevice)
}

func (w *worker) step() {
	dst, src := alloc(), alloc()
	w.refresh(dst, src)
	args := []unsafe.Pointer{unsafe.Pointer(&dst)}
	C.hipModuleLaunchKernel(w.fn, 1, 1, 1, 64, 1, 1, 0, w.stream, &args[0], nil) // want `C.hipModuleLaunchKernel reads dst on a non-blocking stream \(it does not wait for other streams\) before the device-to-device copy into it by refresh \(C.hipMemcpy\)`
}

func loopCarried(f C.hipFunction_t, iters int) { // want loopCarried:`synchronizes\(device\)`
	dst, src := alloc(), alloc()
	var s C.hipStream_t
	C.hipStreamCreateWithFlags(&s, C.hipStreamNonBlocking)
	args := []unsafe.Pointer{unsafe.Pointer(&dst)}
	for i := 0; i < iters; i++ {
		C.hipModuleLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, s, &args[0], nil) // want `C.hipModuleLaunchKernel reads dst on a non-blocking stream`
		C.hipMemcpy(dst, src, n, C.hipMemcpyDeviceToDevice)
	}
	C.hipDeviceSynchronize()
}
