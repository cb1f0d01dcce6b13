// Package getters holds the getter shapes the analyzers rely on (from
// memcpysync's testdata: buffer accessors, view accessors, stream handle
// getters of a gorgonia/cu-style binding), for flow.Getters' facts.
package getters

// #cgo CFLAGS: -I${SRCDIR}/../../../../../testdata/include
// #include <hip/hip_runtime_api.h>
// #include <cuda.h>
import "C"

import "unsafe"

type Buffer struct {
	ptr unsafe.Pointer
	n   int
}

func (b *Buffer) Ptr() unsafe.Pointer { return b.ptr } // want Ptr:`returnsField\(r.ptr\)`

func (b *Buffer) Values() []float32 { // want Values:`returnsField\(r.ptr\)`
	return unsafe.Slice((*float32)(b.ptr), b.n)
}

func (b *Buffer) Len() int { return b.n }

// Stream wraps a driver stream handle.
type Stream struct{ h C.CUstream }

func (s Stream) handle() C.CUstream { return s.h } // want handle:`returnsField\(r.h\)`

func Of(b *Buffer) unsafe.Pointer { return b.ptr } // want Of:`returnsField\(p0.ptr\)`

func (b *Buffer) Free() error {
	if C.hipFree(b.ptr) != C.hipSuccess {
		return nil
	}
	return nil
}

var _ = Stream.handle
