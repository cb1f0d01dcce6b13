package umload

// #include <hip/hip_runtime_api.h>
import "C"

import (
	"errors"
	"fmt"
	"unsafe"
)

var normalize C.hipFunction_t

func hipCheck(op string, r C.hipError_t) error {
	if r != C.hipSuccess {
		return fmt.Errorf("umload: %s: %d", op, int(r))
	}
	return nil
}

// Batch is n float32 values in device or managed memory.
type Batch struct {
	ptr     unsafe.Pointer
	n       int
	managed bool
}

// Options choose where batches live.
type Options struct {
	Managed bool
}

// NewBatch allocates a batch.
func NewBatch(n int, opts Options) (*Batch, error) { // want NewBatch:"needsXNACK\\(managed\\) initializesHIP"
	b := &Batch{n: n, managed: opts.Managed}
	size := C.size_t(n * 4)
	if opts.Managed {
		if err := hipCheck("hipMallocManaged", C.hipMallocManaged(&b.ptr, size, C.hipMemAttachGlobal)); err != nil {
			return nil, err
		}
		return b, nil
	}
	if err := hipCheck("hipMalloc", C.hipMalloc(&b.ptr, size)); err != nil {
		return nil, err
	}
	return b, nil
}

// newDeviceBatch allocates device memory only.
func newDeviceBatch(n int) (*Batch, error) {
	b := &Batch{n: n}
	if err := hipCheck("hipMalloc", C.hipMalloc(&b.ptr, C.size_t(n*4))); err != nil {
		return nil, err
	}
	return b, nil
}

// newManagedBatch allocates managed memory only.
func newManagedBatch(n int) (*Batch, error) {
	b := &Batch{n: n, managed: true}
	if err := hipCheck("hipMallocManaged", C.hipMallocManaged(&b.ptr, C.size_t(n*4), C.hipMemAttachGlobal)); err != nil {
		return nil, err
	}
	return b, nil
}

// launch runs the normalize kernel over n values at p.
func launch(p unsafe.Pointer, n int) error {
	cn := C.int(n)
	args := []unsafe.Pointer{unsafe.Pointer(&p), unsafe.Pointer(&cn)}
	return hipCheck("hipModuleLaunchKernel", C.hipModuleLaunchKernel(normalize, C.uint((n+255)/256), 1, 1, 256, 1, 1, 0, nil, &args[0], nil))
}

// Normalize runs the kernel over a batch.
func (b *Batch) Normalize() error { // want Normalize:"initializesHIP"
	return launch(b.ptr, b.n)
}

// NormalizeSlice runs the kernel straight over a Go slice: it needs XNACK.
func NormalizeSlice(x []float32) error { // want NormalizeSlice:"launchesParams\\(p0\\) initializesHIP"
	return launch(unsafe.Pointer(unsafe.SliceData(x)), len(x))
}

var errNoZeroCopy = errors.New("umload: zero copy needs XNACK")

// NormalizeSliceChecked runs over the slice only where XNACK is on, and
// reports an error elsewhere.
func NormalizeSliceChecked(x []float32) error { // want NormalizeSliceChecked:"initializesHIP"
	if !Capabilities().XNACK {
		return errNoZeroCopy
	}
	return launch(unsafe.Pointer(unsafe.SliceData(x)), len(x))
}

// Prefetch moves a managed batch to device 0.
func (b *Batch) Prefetch() error { // want Prefetch:"needsXNACK\\(managed\\) initializesHIP"
	if !b.managed {
		return nil
	}
	return hipCheck("hipMemPrefetchAsync", C.hipMemPrefetchAsync(b.ptr, C.size_t(b.n*4), 0, nil))
}
