// Package csource includes a library header the machine lacks both in its
// Go preamble and in C sources of its own (csource.c), which its own
// header (csource.h) declares with the library's types. hiplint stubs the
// preamble's include, declares the library's names from their use in Go
// and empties the C sources (internal/synth), so the runtime calls keep
// their C types.
package csource

/*
#include <hip/hip_runtime_api.h>
#include <hlfakelib.h>
#include "csource.h"
*/
import "C"

import (
	"errors"
	"unsafe"
)

// Plan is a plan of the library bound to a stream.
type Plan struct {
	p      C.hlfakePlan_t
	stream C.hipStream_t
}

// New creates a plan through the package's own C helper.
func New() (*Plan, error) {
	p := &Plan{}
	if C.csourceNewPlan(&p.p, C.HLFAKE_MODE_FAST) != C.HLFAKE_SUCCESS {
		return nil, errors.New("csourceNewPlan failed")
	}
	if C.hipStreamCreate(&p.stream) != C.hipSuccess {
		return nil, errors.New("hipStreamCreate failed")
	}
	return p, nil
}

// Run copies src to dst on the plan's stream, runs the plan on work and
// reads dst on the host before the stream is synchronized.
func (p *Plan) Run(dst, src, work unsafe.Pointer, n int) float32 {
	C.hipMemcpyAsync(dst, src, C.size_t(4*n), C.hipMemcpyDeviceToDevice, p.stream)
	C.csourceRun(p.p, (*C.float)(work), C.int(n))
	return *(*float32)(dst) // hazard: HL1002
}

// RunSynced is the safe twin.
func (p *Plan) RunSynced(dst, src, work unsafe.Pointer, n int) float32 {
	C.hipMemcpyAsync(dst, src, C.size_t(4*n), C.hipMemcpyDeviceToDevice, p.stream)
	C.csourceRun(p.p, (*C.float)(work), C.int(n))
	C.hipStreamSynchronize(p.stream)
	return *(*float32)(dst)
}

// Close destroys the plan and its stream.
func (p *Plan) Close() {
	C.hlfakeDestroyPlan(p.p)
	C.hipStreamDestroy(p.stream)
}
