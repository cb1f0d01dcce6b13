// Package xnack is the XNACK column of the construct matrix
// (docs/coverage.md). Its hazards are tests that reach system memory on the
// GPU (C.malloc memory a kernel dereferences) with no XNACK skip guard; each
// twin is the same construct reaching device memory (hipMalloc), which needs
// no XNACK. The constructs are in the tests, which cannot use cgo: the
// kernels and buffers are the Go functions below.
package xnack

// #cgo CFLAGS: -I${SRCDIR}/../../../include
// #include <hip/hip_runtime_api.h>
// #include <stdlib.h>
import "C"

import (
	"fmt"
	"unsafe"
)

var kernel C.hipFunction_t

func check(r C.hipError_t) error {
	if r != C.hipSuccess {
		return fmt.Errorf("hip error %d", int(r))
	}
	return nil
}

// HostBuf returns system memory (C.malloc).
func HostBuf(n int) unsafe.Pointer { return C.malloc(C.size_t(n)) } // want HostBuf:"returnsSystemMemory\\(result=0\\)"

// DeviceBuf returns device memory (hipMalloc).
func DeviceBuf(n int) unsafe.Pointer { // want DeviceBuf:"initializesHIP"
	var p unsafe.Pointer
	C.hipMalloc(&p, C.size_t(n))
	return p
}

// Launch runs the kernel on p.
func Launch(p unsafe.Pointer) error { // want Launch:"launchesParams\\(p0\\) initializesHIP"
	args := []unsafe.Pointer{unsafe.Pointer(&p)}
	return check(C.hipModuleLaunchKernel(kernel, 1, 1, 1, 64, 1, 1, 0, nil, &args[0], nil))
}

// Kernel launches on the buffers it is given.
type Kernel struct{ name string }

// Run launches k on p.
func (k *Kernel) Run(p unsafe.Pointer) error { return Launch(p) } // want Run:"launchesParams\\(p0\\) initializesHIP"

// Runner keeps the buffer it launches on.
type Runner struct {
	buf unsafe.Pointer
	k   Kernel
}

// NewHostRunner keeps system memory.
func NewHostRunner() *Runner { return &Runner{buf: HostBuf(64)} }

// NewDeviceRunner keeps device memory.
func NewDeviceRunner() *Runner { return &Runner{buf: DeviceBuf(64)} } // want NewDeviceRunner:"initializesHIP"

// Step launches on the runner's buffer.
func (r *Runner) Step() error { return Launch(r.buf) } // want Step:"launchesParams\\(r\\.buf\\) initializesHIP"

// XNACKEnabled reports whether the device has XNACK on.
func XNACKEnabled() bool { // want XNACKEnabled:"reportsXNACK\\(result=0\\) initializesHIP"
	var v C.int
	if check(C.hipDeviceGetAttribute(&v, C.hipDeviceAttributePageableMemoryAccess, 0)) != nil {
		return false
	}
	return v == 1
}

// Option configures a Runner.
type Option func(*Runner)

// WithHostStaging stages through system memory.
func WithHostStaging() Option { return func(r *Runner) { r.buf = HostBuf(64) } }

// WithDeviceStaging stages through device memory.
func WithDeviceStaging() Option { return func(r *Runner) { r.buf = DeviceBuf(64) } } // want WithDeviceStaging:"initializesHIP"

// NewRunner applies the options.
func NewRunner(opts ...Option) *Runner {
	r := &Runner{}
	for _, o := range opts {
		o(r)
	}
	return r
}

// LaunchOnStream launches on a stream made non-blocking, or on the legacy
// (null) stream.
func LaunchOnStream(p unsafe.Pointer, nonBlocking bool) error { // want LaunchOnStream:"launchesParams\\(p0\\) initializesHIP"
	var s C.hipStream_t
	if nonBlocking {
		C.hipStreamCreateWithFlags(&s, C.hipStreamNonBlocking)
	}
	args := []unsafe.Pointer{unsafe.Pointer(&p)}
	return check(C.hipModuleLaunchKernel(kernel, 1, 1, 1, 64, 1, 1, 0, s, &args[0], nil))
}
