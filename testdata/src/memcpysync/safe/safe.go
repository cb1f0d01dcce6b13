// Package safe holds the ordered patterns: none of them is reported.
package safe

// #cgo CFLAGS: -I${SRCDIR}/../../../include
// #include <hip/hip_runtime_api.h>
import "C"

import "unsafe"

const n = 1 << 20

func alloc() unsafe.Pointer {
	var p unsafe.Pointer
	C.hipMalloc(&p, n)
	return p
}

func syncBeforeRead() float32 { // want syncBeforeRead:`synchronizes\(device\)`
	dst, src := alloc(), alloc()
	C.hipMemcpy(dst, src, n, C.hipMemcpyDeviceToDevice)
	C.hipDeviceSynchronize()
	return *(*float32)(dst)
}

func checkedSync() float32 { // want checkedSync:`synchronizes\(device\)`
	dst, src := alloc(), alloc()
	C.hipMemcpy(dst, src, n, C.hipMemcpyDeviceToDevice)
	if C.hipDeviceSynchronize() != C.hipSuccess {
		return 0
	}
	return *(*float32)(dst)
}

func nullStreamSync() float32 {
	dst, src := alloc(), alloc()
	C.hipMemcpy(dst, src, n, C.hipMemcpyDeviceToDevice)
	C.hipStreamSynchronize(nil)
	return *(*float32)(dst)
}

func sameNullStream(f C.hipFunction_t) {
	dst, src := alloc(), alloc()
	C.hipMemcpy(dst, src, n, C.hipMemcpyDeviceToDevice)
	args := []unsafe.Pointer{unsafe.Pointer(&dst)}
	C.hipModuleLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, nil, &args[0], nil)
}

func blockingStreamAfterNullCopy(f C.hipFunction_t) {
	dst, src := alloc(), alloc()
	var s C.hipStream_t
	C.hipStreamCreate(&s)
	C.hipMemcpy(dst, src, n, C.hipMemcpyDeviceToDevice)
	args := []unsafe.Pointer{unsafe.Pointer(&dst)}
	C.hipModuleLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, s, &args[0], nil)
}

func sameAsyncStream(f C.hipFunction_t) {
	dst, src := alloc(), alloc()
	var s C.hipStream_t
	C.hipStreamCreateWithFlags(&s, C.hipStreamNonBlocking)
	C.hipMemcpyAsync(dst, src, n, C.hipMemcpyDeviceToDevice, s)
	args := []unsafe.Pointer{unsafe.Pointer(&dst)}
	C.hipModuleLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, s, &args[0], nil)
}

func asyncThenStreamSync() float32 {
	dst, src := alloc(), alloc()
	var s C.hipStream_t
	C.hipStreamCreateWithFlags(&s, C.hipStreamNonBlocking)
	C.hipMemcpyDtoDAsync(C.hipDeviceptr_t(dst), C.hipDeviceptr_t(src), n, s)
	C.hipStreamSynchronize(s)
	return *(*float32)(dst)
}

func eventRecordStreamWait(f C.hipFunction_t) {
	dst, src := alloc(), alloc()
	var s C.hipStream_t
	var ev C.hipEvent_t
	C.hipStreamCreateWithFlags(&s, C.hipStreamNonBlocking)
	C.hipEventCreate(&ev)
	C.hipMemcpy(dst, src, n, C.hipMemcpyDeviceToDevice)
	C.hipEventRecord(ev, nil)
	C.hipStreamWaitEvent(s, ev, 0)
	args := []unsafe.Pointer{unsafe.Pointer(&dst)}
	C.hipModuleLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, s, &args[0], nil)
}

func eventSynchronize() float32 {
	dst, src := alloc(), alloc()
	var ev C.hipEvent_t
	C.hipEventCreate(&ev)
	C.hipMemcpy(dst, src, n, C.hipMemcpyDeviceToDevice)
	C.hipEventRecord(ev, nil)
	C.hipEventSynchronize(ev)
	return *(*float32)(dst)
}

func blockingDeviceToHost(host []float32) float32 { // want blockingDeviceToHost:`synchronizes\(null\)`
	dst, src := alloc(), alloc()
	C.hipMemcpy(dst, src, n, C.hipMemcpyDeviceToDevice)
	C.hipMemcpy(unsafe.Pointer(&host[0]), dst, n, C.hipMemcpyDeviceToHost)
	return *(*float32)(dst)
}

func blockingDtoHOfOtherBuffer(host []float32) float32 { // want blockingDtoHOfOtherBuffer:`synchronizes\(null\)`
	dst, src, other := alloc(), alloc(), alloc()
	C.hipMemcpy(dst, src, n, C.hipMemcpyDeviceToDevice)
	C.hipMemcpyDtoH(unsafe.Pointer(&host[0]), C.hipDeviceptr_t(other), n)
	return *(*float32)(dst)
}

func hostToDevice(host []float32) float32 {
	dst := alloc()
	C.hipMemcpy(dst, unsafe.Pointer(&host[0]), n, C.hipMemcpyHostToDevice)
	return *(*float32)(dst)
}

func defaultKindFromHost(host []float32) float32 {
	dst := alloc()
	C.hipMemcpy(dst, unsafe.Pointer(&host[0]), n, C.hipMemcpyDefault)
	return *(*float32)(dst)
}

func dstIsHostMemory() float32 { // want dstIsHostMemory:`synchronizes\(null\)`
	var pinned unsafe.Pointer
	C.hipHostMalloc(&pinned, n, 0)
	src := alloc()
	C.hipMemcpy(pinned, src, n, C.hipMemcpyDefault)
	return *(*float32)(pinned)
}

func readTheSource() float32 {
	dst, src := alloc(), alloc()
	C.hipMemcpy(dst, src, n, C.hipMemcpyDeviceToDevice)
	return *(*float32)(src)
}

func readOnAnotherPath(copyFirst bool) float32 {
	dst, src := alloc(), alloc()
	if copyFirst {
		C.hipMemcpy(dst, src, n, C.hipMemcpyDeviceToDevice)
		return 0
	}
	return *(*float32)(dst)
}

func kindVariableDeviceToHost(host []float32) float32 { // want kindVariableDeviceToHost:`synchronizes\(null\)`
	src := alloc()
	dst := alloc()
	kind := C.hipMemcpyKind(C.hipMemcpyDeviceToHost)
	C.hipMemcpy(dst, src, n, kind)
	return *(*float32)(dst)
}

func peerThenDestinationNullStream(f C.hipFunction_t) { // want peerThenDestinationNullStream:`setsDevice\(c:1\)`
	C.hipSetDevice(0)
	dst, src := alloc(), alloc()
	C.hipMemcpyPeer(dst, 1, src, 0, n)
	C.hipSetDevice(1)
	args := []unsafe.Pointer{unsafe.Pointer(&dst)}
	C.hipModuleLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, nil, &args[0], nil)
}

func syncBackOnCopyingDevice() float32 { // want syncBackOnCopyingDevice:`setsDevice\(c:0\)`
	C.hipSetDevice(0)
	dst, src := alloc(), alloc()
	C.hipMemcpy(dst, src, n, C.hipMemcpyDeviceToDevice)
	C.hipSetDevice(1)
	C.hipSetDevice(0)
	C.hipDeviceSynchronize()
	return *(*float32)(dst)
}

func goroutineSyncsFirst(done chan float32) {
	dst, src := alloc(), alloc()
	C.hipMemcpy(dst, src, n, C.hipMemcpyDeviceToDevice)
	go func() {
		C.hipDeviceSynchronize()
		done <- *(*float32)(dst)
	}()
}

func goroutineAfterSync(done chan float32) { // want goroutineAfterSync:`synchronizes\(device\)`
	dst, src := alloc(), alloc()
	C.hipMemcpy(dst, src, n, C.hipMemcpyDeviceToDevice)
	C.hipDeviceSynchronize()
	go func() { done <- *(*float32)(dst) }()
}

func suppressed() float32 {
	dst, src := alloc(), alloc()
	C.hipMemcpy(dst, src, n, C.hipMemcpyDeviceToDevice)
	dst = alloc() // dst now names other memory
	return *(*float32)(dst)
}

type streamHolder struct{ s C.hipStream_t }

func (w *streamHolder) handle() C.hipStream_t { return w.s }

func syncStream(s C.hipStream_t) { // want syncStream:`synchronizes\(p0\)`
	C.hipStreamSynchronize(s)
}

// syncThroughHandleCopy: h is w.s, the stream the copy is queued on, so a
// wrapper that synchronizes h waits for the copy.
func syncThroughHandleCopy(w *streamHolder) float32 { // want syncThroughHandleCopy:`synchronizes\(p0.s\)`
	dst, src := alloc(), alloc()
	h := w.handle()
	C.hipMemcpyAsync(dst, src, n, C.hipMemcpyDeviceToDevice, h)
	syncStream(h)
	return *(*float32)(dst)
}
