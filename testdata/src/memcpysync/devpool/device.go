// Package devpool is a tensor runtime in the style of real Go GPU
// libraries: a device handle that owns a non-blocking copy stream and a
// blocking compute stream, a pool of device buffers reused across calls,
// asynchronous copy helpers that hand back events, and kernels launched
// on a stream the caller names. Its own flows (ops.go) mix the hazards
// such a library ships with the correct code around them.
package devpool

// #cgo CFLAGS: -I${SRCDIR}/../../../include
// #include <stdlib.h>
// #include <hip/hip_runtime_api.h>
import "C"

import (
	"fmt"
	"unsafe"
)

// Error is a HIP status.
type Error struct {
	Op   string
	Code int
}

func (e *Error) Error() string { return fmt.Sprintf("%s: hip error %d", e.Op, e.Code) }

func status(op string, r C.hipError_t) error {
	if r != C.hipSuccess {
		return &Error{Op: op, Code: int(r)}
	}
	return nil
}

// Options configure a device.
type Options struct {
	// Managed allocates pooled buffers in managed memory, so that the
	// host can view them.
	Managed bool
	// Module is the code object holding the library's kernels.
	Module string
}

// Device is one GPU with the library's streams.
type Device struct {
	id   int
	opts Options
	// copy carries transfers: it never waits for the null stream.
	copy C.hipStream_t // want copy:"nonBlockingStream"
	// compute runs kernels: a blocking stream.
	compute C.hipStream_t // want compute:"blockingStream"
	mod     C.hipModule_t
	scale   C.hipFunction_t
	pool    *Pool
}

// Open makes device id current and creates its streams.
func Open(id int, opts Options) (*Device, error) { // want Open:`setsDevice\(p0\)`
	d := &Device{id: id, opts: opts}
	if err := status("hipSetDevice", C.hipSetDevice(C.int(id))); err != nil {
		return nil, err
	}
	if err := status("hipStreamCreateWithFlags", C.hipStreamCreateWithFlags(&d.copy, C.hipStreamNonBlocking)); err != nil {
		return nil, err
	}
	if err := status("hipStreamCreate", C.hipStreamCreate(&d.compute)); err != nil {
		return nil, err
	}
	name := C.CString(opts.Module)
	defer C.free(unsafe.Pointer(name))
	if err := status("hipModuleLoad", C.hipModuleLoad(&d.mod, name)); err != nil {
		return nil, err
	}
	kname := C.CString("scale")
	defer C.free(unsafe.Pointer(kname))
	if err := status("hipModuleGetFunction", C.hipModuleGetFunction(&d.scale, d.mod, kname)); err != nil {
		return nil, err
	}
	d.pool = newPool(d)
	return d, nil
}

// Pool returns the device's buffer pool.
func (d *Device) Pool() *Pool { return d.pool }

// Sync waits for all work on the device.
func (d *Device) Sync() error { // want Sync:`synchronizes\(device\)`
	return status("hipDeviceSynchronize", C.hipDeviceSynchronize())
}

// SyncCopies waits for the copy stream.
func (d *Device) SyncCopies() error { // want SyncCopies:`synchronizes\(r\.copy\)`
	return status("hipStreamSynchronize", C.hipStreamSynchronize(d.copy))
}

// Close releases the streams and the module.
func (d *Device) Close() error {
	C.hipStreamDestroy(d.copy)
	C.hipStreamDestroy(d.compute)
	return status("hipModuleUnload", C.hipModuleUnload(d.mod))
}
