// Package realapp uses realwrap the way applications do.
package realapp

// #cgo CFLAGS: -I${SRCDIR}/../../../include
// #include <hip/hip_runtime_api.h>
import "C"

import (
	"unsafe"

	"memcpysync/realwrap"
)

var (
	pool   [2]unsafe.Pointer
	st, _  = realwrap.NewNonBlocking()
	bst, _ = realwrap.NewStream()
	ev     = new(realwrap.Event)
	k      = new(realwrap.Kernel)
	rawSt  C.hipStream_t
)

// buffers hands out device memory.
func buffers() (dst, src unsafe.Pointer, out []float32) {
	return pool[0], pool[1], make([]float32, 64)
}

// A null-stream download is ordered after the null-stream copy.
func downloadNull() error { // want downloadNull:`synchronizes\(null\)`
	dst, src, out := buffers()
	_ = out
	C.hipMemcpy(dst, src, 256, C.hipMemcpyDeviceToDevice)
	return realwrap.Download(out, dst)
}

func downloadDtoH() error { // want downloadDtoH:`synchronizes\(null\)`
	dst, src, out := buffers()
	_ = out
	C.hipMemcpyDtoD(C.hipDeviceptr_t(dst), C.hipDeviceptr_t(src), 256)
	return realwrap.DownloadDtoH(out, dst)
}

func downloadNonBlocking() error {
	dst, src, out := buffers()
	_ = out
	C.hipMemcpy(dst, src, 256, C.hipMemcpyDeviceToDevice)
	return st.DownloadAsync(out, dst) // want `DownloadAsync reads dst on a non-blocking stream`
}

func downloadNonBlockingSynced() error { // want downloadNonBlockingSynced:`synchronizes\(device\)`
	dst, src, out := buffers()
	_ = out
	C.hipMemcpy(dst, src, 256, C.hipMemcpyDeviceToDevice)
	C.hipDeviceSynchronize()
	return st.DownloadAsync(out, dst)
}

func scaleNonBlocking() error {
	dst, src, out := buffers()
	_ = out
	C.hipMemcpy(dst, src, 256, C.hipMemcpyDeviceToDevice)
	return st.Scale(k, dst, 64) // want `Scale reads dst on a non-blocking stream`
}

func scaleNull() error {
	dst, src, out := buffers()
	_ = out
	C.hipMemcpy(dst, src, 256, C.hipMemcpyDeviceToDevice)
	return realwrap.ScaleNull(k, dst, 64)
}

func libNonBlocking() {
	dst, src, out := buffers()
	_ = out
	C.hipMemcpy(dst, src, 256, C.hipMemcpyDeviceToDevice)
	st.LibScale(dst, 64) // want `LibScale reads dst on a non-blocking stream`
}

func libNull() {
	dst, src, out := buffers()
	_ = out
	C.hipMemcpy(dst, src, 256, C.hipMemcpyDeviceToDevice)
	realwrap.LibScaleNull(dst, 64)
}

// The stream waits for an event recorded after the copy: ordered.
func eventWait() error {
	dst, src, out := buffers()
	_ = out
	C.hipMemcpy(dst, src, 256, C.hipMemcpyDeviceToDevice)
	if err := ev.Record(); err != nil {
		return err
	}
	if err := st.WaitEvent(ev); err != nil {
		return err
	}
	return st.Scale(k, dst, 64)
}

// The event is recorded, but nobody waits for it.
func eventNoWait() error {
	dst, src, out := buffers()
	_ = out
	C.hipMemcpy(dst, src, 256, C.hipMemcpyDeviceToDevice)
	if err := ev.Record(); err != nil {
		return err
	}
	return st.Scale(k, dst, 64) // want `Scale reads dst on a non-blocking stream`
}

// The host waits for the event.
func eventSync() float32 {
	dst, src, out := buffers()
	_ = out
	C.hipMemcpy(dst, src, 256, C.hipMemcpyDeviceToDevice)
	ev.Record()
	ev.Wait()
	return *(*float32)(dst)
}

func eventSyncMissing() float32 {
	dst, src, out := buffers()
	_ = out
	C.hipMemcpy(dst, src, 256, C.hipMemcpyDeviceToDevice)
	ev.Record()
	return *(*float32)(dst) // want `this dereference reads dst on the host`
}

// An async copy on a non-blocking stream, synchronized through the wrapper.
func streamSync() float32 {
	dst, src, out := buffers()
	_ = out
	C.hipMemcpyAsync(dst, src, 256, C.hipMemcpyDeviceToDevice, rawSt)
	C.hipStreamSynchronize(rawSt)
	return *(*float32)(dst)
}

// A null-stream copy read on the host after a blocking stream's Sync: the
// stream's sync does not wait for the null stream... it does for a blocking
// stream only through implicit sync, which hipStreamSynchronize of another
// stream does not give. Reported.
func otherStreamSync() float32 {
	dst, src, out := buffers()
	_ = out
	C.hipMemcpy(dst, src, 256, C.hipMemcpyDeviceToDevice)
	bst.Sync()
	return *(*float32)(dst) // want `this dereference reads dst on the host`
}
