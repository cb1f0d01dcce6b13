// Package graphalloc builds the HIP graph of one training step by hand: an
// alloc node for the step's activations, forward, backward and update kernel
// nodes, and a free node that hands the activations back to the graph's
// memory pool. Instantiated once and relaunched every step, the graph takes
// the per-kernel launch overhead out of the training loop, and the
// activations exist only while the step runs.
//
// It is one of hiplint's example programs. BuildStepEarlyFree frees the
// activations right after the forward pass, while the backward pass still
// reads them (HL3003). BuildStepPreallocated frees a hipMalloc buffer with a
// free node (HL3001), and BuildStepPooled frees a hipMallocAsync buffer
// allocated outside stream capture with one (HL3002). BuildStep, whose free
// node frees its own alloc node's dptr after the last kernel that uses it,
// and BuildStepCaptured, which records the same step by stream capture, are
// the safe twins.
package graphalloc

/*
#cgo CFLAGS: -I${SRCDIR}/../../testdata/include
#include <hip/hip_runtime_api.h>
*/
import "C"

import (
	"errors"
	"fmt"
	"runtime"
	"unsafe"
)

// check turns a HIP status into a Go error naming the failed call.
func check(op string, r C.hipError_t) error {
	if r == C.hipSuccess {
		return nil
	}
	return fmt.Errorf("%s: %s", op, C.GoString(C.hipGetErrorName(r)))
}

// blockSize is the number of threads per block of every kernel of the step.
const blockSize = 256

// Kernels are the host-side addresses of the step's kernels, as the C++ part
// of the program registers them (hipLaunchKernel-style function addresses).
type Kernels struct {
	Forward  unsafe.Pointer // forward(weights, input, act, batch)
	Backward unsafe.Pointer // backward(weights, act, grads, batch)
	Update   unsafe.Pointer // update(weights, grads, lr, nparams)
}

// Model is a one-layer model whose weights, gradients and input batch live in
// device memory for the whole run; only the activations are per step.
type Model struct {
	kernels  Kernels
	stream   C.hipStream_t
	weights  unsafe.Pointer // nparams float32, hipMalloc
	grads    unsafe.Pointer // nparams float32, hipMalloc
	input    unsafe.Pointer // batch × features float32, hipMalloc; the data loader fills it
	nparams  C.int
	batch    C.int
	features C.int
	lr       C.float
}

// NewModel allocates the model's device buffers and its stream; the caller
// must Close it.
func NewModel(k Kernels, nparams, batch, features int, lr float32) (*Model, error) {
	if nparams <= 0 || batch <= 0 || features <= 0 {
		return nil, errors.New("graphalloc: sizes must be positive")
	}
	m := &Model{kernels: k, nparams: C.int(nparams), batch: C.int(batch), features: C.int(features), lr: C.float(lr)}
	if err := check("hipStreamCreate", C.hipStreamCreateWithFlags(&m.stream, C.hipStreamNonBlocking)); err != nil {
		return nil, err
	}
	for _, b := range []struct {
		ptr   *unsafe.Pointer
		bytes C.size_t
	}{
		{&m.weights, C.size_t(nparams) * 4},
		{&m.grads, C.size_t(nparams) * 4},
		{&m.input, C.size_t(batch) * C.size_t(features) * 4},
	} {
		if err := check("hipMalloc", C.hipMalloc(b.ptr, b.bytes)); err != nil {
			m.Close()
			return nil, err
		}
	}
	return m, nil
}

// Close frees the model's device buffers and destroys its stream.
func (m *Model) Close() error {
	var errs []error
	for _, p := range []unsafe.Pointer{m.weights, m.grads, m.input} {
		if p != nil {
			errs = append(errs, check("hipFree", C.hipFree(p)))
		}
	}
	if m.stream != nil {
		errs = append(errs, check("hipStreamDestroy", C.hipStreamDestroy(m.stream)))
	}
	return errors.Join(errs...)
}

// actBytes is the size of one step's activations.
func (m *Model) actBytes() C.size_t { return C.size_t(m.batch) * C.size_t(m.nparams) * 4 }

func grid(n C.int) C.dim3 { return C.dim3{x: C.uint((n + blockSize - 1) / blockSize), y: 1, z: 1} }

var block = C.dim3{x: blockSize, y: 1, z: 1}

// actParams describes the activations' alloc node: device memory from the
// graph's pool on the current device.
func (m *Model) actParams() C.hipMemAllocNodeParams {
	var params C.hipMemAllocNodeParams
	params.poolProps.allocType = C.hipMemAllocationTypePinned
	params.poolProps.location._type = C.hipMemLocationTypeDevice
	params.bytesize = m.actBytes()
	return params
}

// Step is an instantiated training step, launched once per batch.
type Step struct {
	graph C.hipGraph_t
	exec  C.hipGraphExec_t
}

// instantiate turns a built graph into a Step; it destroys the graph if it
// cannot.
func instantiate(g C.hipGraph_t) (*Step, error) {
	s := &Step{graph: g}
	if err := check("hipGraphInstantiate", C.hipGraphInstantiate(&s.exec, g, nil, nil, 0)); err != nil {
		C.hipGraphDestroy(g)
		return nil, err
	}
	return s, nil
}

// Run launches the step on the model's stream and waits for it.
func (s *Step) Run(m *Model) error {
	if err := check("hipGraphLaunch", C.hipGraphLaunch(s.exec, m.stream)); err != nil {
		return err
	}
	return check("hipStreamSynchronize", C.hipStreamSynchronize(m.stream))
}

// Destroy releases the executable graph and the graph.
func (s *Step) Destroy() error {
	return errors.Join(
		check("hipGraphExecDestroy", C.hipGraphExecDestroy(s.exec)),
		check("hipGraphDestroy", C.hipGraphDestroy(s.graph)))
}

// BuildStep builds alloc(act) → forward → backward → update, with the free
// of the activations depending on backward, the last node that reads them.
func (m *Model) BuildStep() (*Step, error) {
	var g C.hipGraph_t
	if err := check("hipGraphCreate", C.hipGraphCreate(&g, 0)); err != nil {
		return nil, err
	}
	var pin runtime.Pinner
	defer pin.Unpin()
	pin.Pin(m)

	// The kernel argument arrays point at act, so it is pinned for the
	// duration of the calls that copy them.
	var act unsafe.Pointer
	pin.Pin(&act)

	params := m.actParams()
	var alloc, forward, backward, update, free C.hipGraphNode_t
	if err := check("hipGraphAddMemAllocNode", C.hipGraphAddMemAllocNode(&alloc, g, nil, 0, &params)); err != nil {
		C.hipGraphDestroy(g)
		return nil, err
	}
	act = params.dptr

	fargs := []unsafe.Pointer{unsafe.Pointer(&m.weights), unsafe.Pointer(&m.input), unsafe.Pointer(&act), unsafe.Pointer(&m.batch)}
	fp := C.hipKernelNodeParams{_func: m.kernels.Forward, gridDim: grid(m.batch), blockDim: block, kernelParams: &fargs[0]}
	if err := check("hipGraphAddKernelNode", C.hipGraphAddKernelNode(&forward, g, &alloc, 1, &fp)); err != nil {
		C.hipGraphDestroy(g)
		return nil, err
	}
	bargs := []unsafe.Pointer{unsafe.Pointer(&m.weights), unsafe.Pointer(&act), unsafe.Pointer(&m.grads), unsafe.Pointer(&m.batch)}
	bp := C.hipKernelNodeParams{_func: m.kernels.Backward, gridDim: grid(m.batch), blockDim: block, kernelParams: &bargs[0]}
	if err := check("hipGraphAddKernelNode", C.hipGraphAddKernelNode(&backward, g, &forward, 1, &bp)); err != nil {
		C.hipGraphDestroy(g)
		return nil, err
	}
	uargs := []unsafe.Pointer{unsafe.Pointer(&m.weights), unsafe.Pointer(&m.grads), unsafe.Pointer(&m.lr), unsafe.Pointer(&m.nparams)}
	up := C.hipKernelNodeParams{_func: m.kernels.Update, gridDim: grid(m.nparams), blockDim: block, kernelParams: &uargs[0]}
	if err := check("hipGraphAddKernelNode", C.hipGraphAddKernelNode(&update, g, &backward, 1, &up)); err != nil {
		C.hipGraphDestroy(g)
		return nil, err
	}
	// The update does not touch the activations: the free runs beside it.
	if err := check("hipGraphAddMemFreeNode", C.hipGraphAddMemFreeNode(&free, g, &backward, 1, act)); err != nil {
		C.hipGraphDestroy(g)
		return nil, err
	}
	return instantiate(g)
}

// BuildStepEarlyFree lowers the step's peak memory by freeing the
// activations as soon as the forward pass has written them. But the backward
// pass reads them too, and the free node does not depend on it: the pool can
// hand the activations to the next allocation while backward still runs.
func (m *Model) BuildStepEarlyFree() (*Step, error) {
	var g C.hipGraph_t
	if err := check("hipGraphCreate", C.hipGraphCreate(&g, 0)); err != nil {
		return nil, err
	}
	var pin runtime.Pinner
	defer pin.Unpin()
	pin.Pin(m)

	// The kernel argument arrays point at act, so it is pinned for the
	// duration of the calls that copy them.
	var act unsafe.Pointer
	pin.Pin(&act)

	params := m.actParams()
	var alloc, forward, backward, update, free C.hipGraphNode_t
	if err := check("hipGraphAddMemAllocNode", C.hipGraphAddMemAllocNode(&alloc, g, nil, 0, &params)); err != nil {
		C.hipGraphDestroy(g)
		return nil, err
	}
	act = params.dptr

	fargs := []unsafe.Pointer{unsafe.Pointer(&m.weights), unsafe.Pointer(&m.input), unsafe.Pointer(&act), unsafe.Pointer(&m.batch)}
	fp := C.hipKernelNodeParams{_func: m.kernels.Forward, gridDim: grid(m.batch), blockDim: block, kernelParams: &fargs[0]}
	if err := check("hipGraphAddKernelNode", C.hipGraphAddKernelNode(&forward, g, &alloc, 1, &fp)); err != nil {
		C.hipGraphDestroy(g)
		return nil, err
	}
	if err := check("hipGraphAddMemFreeNode", C.hipGraphAddMemFreeNode(&free, g, &forward, 1, act)); err != nil { // hazard: HL3003
		C.hipGraphDestroy(g)
		return nil, err
	}
	bargs := []unsafe.Pointer{unsafe.Pointer(&m.weights), unsafe.Pointer(&act), unsafe.Pointer(&m.grads), unsafe.Pointer(&m.batch)}
	bp := C.hipKernelNodeParams{_func: m.kernels.Backward, gridDim: grid(m.batch), blockDim: block, kernelParams: &bargs[0]}
	if err := check("hipGraphAddKernelNode", C.hipGraphAddKernelNode(&backward, g, &forward, 1, &bp)); err != nil {
		C.hipGraphDestroy(g)
		return nil, err
	}
	uargs := []unsafe.Pointer{unsafe.Pointer(&m.weights), unsafe.Pointer(&m.grads), unsafe.Pointer(&m.lr), unsafe.Pointer(&m.nparams)}
	up := C.hipKernelNodeParams{_func: m.kernels.Update, gridDim: grid(m.nparams), blockDim: block, kernelParams: &uargs[0]}
	if err := check("hipGraphAddKernelNode", C.hipGraphAddKernelNode(&update, g, &backward, 1, &up)); err != nil {
		C.hipGraphDestroy(g)
		return nil, err
	}
	return instantiate(g)
}

// addPasses adds forward → backward → update on the activations act after
// dep, and returns the backward node, the last one that reads act.
func (m *Model) addPasses(g C.hipGraph_t, dep *C.hipGraphNode_t, ndep C.size_t, act unsafe.Pointer) (C.hipGraphNode_t, error) {
	var pin runtime.Pinner
	defer pin.Unpin()
	pin.Pin(m)
	pin.Pin(&act)

	var forward, backward, update C.hipGraphNode_t
	fargs := []unsafe.Pointer{unsafe.Pointer(&m.weights), unsafe.Pointer(&m.input), unsafe.Pointer(&act), unsafe.Pointer(&m.batch)}
	fp := C.hipKernelNodeParams{_func: m.kernels.Forward, gridDim: grid(m.batch), blockDim: block, kernelParams: &fargs[0]}
	if err := check("hipGraphAddKernelNode", C.hipGraphAddKernelNode(&forward, g, dep, ndep, &fp)); err != nil {
		return nil, err
	}
	bargs := []unsafe.Pointer{unsafe.Pointer(&m.weights), unsafe.Pointer(&act), unsafe.Pointer(&m.grads), unsafe.Pointer(&m.batch)}
	bp := C.hipKernelNodeParams{_func: m.kernels.Backward, gridDim: grid(m.batch), blockDim: block, kernelParams: &bargs[0]}
	if err := check("hipGraphAddKernelNode", C.hipGraphAddKernelNode(&backward, g, &forward, 1, &bp)); err != nil {
		return nil, err
	}
	uargs := []unsafe.Pointer{unsafe.Pointer(&m.weights), unsafe.Pointer(&m.grads), unsafe.Pointer(&m.lr), unsafe.Pointer(&m.nparams)}
	up := C.hipKernelNodeParams{_func: m.kernels.Update, gridDim: grid(m.nparams), blockDim: block, kernelParams: &uargs[0]}
	if err := check("hipGraphAddKernelNode", C.hipGraphAddKernelNode(&update, g, &backward, 1, &up)); err != nil {
		return nil, err
	}
	return backward, nil
}

// BuildStepPreallocated is the eager training loop ported to a graph: the
// activations are still allocated up front with hipMalloc, and the hipFree
// at the end of the step became a free node. A free node only frees graph
// allocations: current HIP and CUDA reject it with hipErrorInvalidValue,
// ROCm 5.6.1 frees memory the graph does not own, earlier releases crash.
func (m *Model) BuildStepPreallocated() (*Step, error) {
	var act unsafe.Pointer
	if err := check("hipMalloc", C.hipMalloc(&act, m.actBytes())); err != nil {
		return nil, err
	}
	var g C.hipGraph_t
	if err := check("hipGraphCreate", C.hipGraphCreate(&g, 0)); err != nil {
		C.hipFree(act)
		return nil, err
	}
	last, err := m.addPasses(g, nil, 0, act)
	if err != nil {
		C.hipGraphDestroy(g)
		C.hipFree(act)
		return nil, err
	}
	var free C.hipGraphNode_t
	if err := check("hipGraphAddMemFreeNode", C.hipGraphAddMemFreeNode(&free, g, &last, 1, act)); err != nil { // hazard: HL3001
		C.hipGraphDestroy(g)
		C.hipFree(act)
		return nil, err
	}
	return instantiate(g)
}

// BuildStepPooled takes the activations from the device's stream-ordered
// pool with hipMallocAsync on the model's stream, and frees them with the
// step's free node. The stream is not being captured, so the memory is not
// a graph allocation: HIP 5.6 accepted the free node, CUDA and current HIP
// return hipErrorInvalidValue.
func (m *Model) BuildStepPooled() (*Step, error) {
	var act unsafe.Pointer
	if err := check("hipMallocAsync", C.hipMallocAsync(&act, m.actBytes(), m.stream)); err != nil {
		return nil, err
	}
	var g C.hipGraph_t
	if err := check("hipGraphCreate", C.hipGraphCreate(&g, 0)); err != nil {
		C.hipFreeAsync(act, m.stream)
		return nil, err
	}
	last, err := m.addPasses(g, nil, 0, act)
	if err != nil {
		C.hipGraphDestroy(g)
		C.hipFreeAsync(act, m.stream)
		return nil, err
	}
	var free C.hipGraphNode_t
	if err := check("hipGraphAddMemFreeNode", C.hipGraphAddMemFreeNode(&free, g, &last, 1, act)); err != nil { // hazard: HL3002
		C.hipGraphDestroy(g)
		C.hipFreeAsync(act, m.stream)
		return nil, err
	}
	return instantiate(g)
}

// BuildStepCaptured records the step instead of building it: hipMallocAsync
// and hipFreeAsync on the model's stream while it is being captured become
// the graph's alloc and free nodes, ordered after the kernels launched
// between them.
func (m *Model) BuildStepCaptured() (*Step, error) {
	if err := check("hipStreamBeginCapture", C.hipStreamBeginCapture(m.stream, C.hipStreamCaptureModeGlobal)); err != nil {
		return nil, err
	}
	var g C.hipGraph_t
	err := m.recordStep()
	if endErr := check("hipStreamEndCapture", C.hipStreamEndCapture(m.stream, &g)); err == nil {
		err = endErr
	}
	if err != nil {
		if g != nil {
			C.hipGraphDestroy(g)
		}
		return nil, err
	}
	return instantiate(g)
}

// recordStep launches the step on the model's stream, which the caller is
// capturing.
func (m *Model) recordStep() error {
	var act unsafe.Pointer
	if err := check("hipMallocAsync", C.hipMallocAsync(&act, m.actBytes(), m.stream)); err != nil {
		return err
	}
	var pin runtime.Pinner
	defer pin.Unpin()
	pin.Pin(m)
	pin.Pin(&act)
	launches := []struct {
		fn   unsafe.Pointer
		n    C.int
		args []unsafe.Pointer
	}{
		{m.kernels.Forward, m.batch, []unsafe.Pointer{unsafe.Pointer(&m.weights), unsafe.Pointer(&m.input), unsafe.Pointer(&act), unsafe.Pointer(&m.batch)}},
		{m.kernels.Backward, m.batch, []unsafe.Pointer{unsafe.Pointer(&m.weights), unsafe.Pointer(&act), unsafe.Pointer(&m.grads), unsafe.Pointer(&m.batch)}},
		{m.kernels.Update, m.nparams, []unsafe.Pointer{unsafe.Pointer(&m.weights), unsafe.Pointer(&m.grads), unsafe.Pointer(&m.lr), unsafe.Pointer(&m.nparams)}},
	}
	for _, l := range launches {
		if err := check("hipLaunchKernel", C.hipLaunchKernel(l.fn, grid(l.n), block, &l.args[0], 0, m.stream)); err != nil {
			return err
		}
	}
	return check("hipFreeAsync", C.hipFreeAsync(act, m.stream))
}
