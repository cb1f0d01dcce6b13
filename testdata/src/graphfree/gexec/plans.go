package gexec

// #include <hip/hip_runtime_api.h>
import "C"

import "unsafe"

// Fanout runs n kernels over one scratch allocation in parallel, and
// frees it after the last one only: the others may still use it.
func (b *Builder) Fanout(n int) error {
	s, err := b.Alloc()
	if err != nil {
		return err
	}
	var last Node
	for i := 0; i < n; i++ {
		if last, err = b.Kernel(s.ptr, s.Node); err != nil {
			return err
		}
	}
	return b.Free(s.ptr, last) // MISSED: node-adding wrappers are not summarized (see Pair); with direct calls, a node variable reassigned in a loop would also stand for one node, not for every node the loop added
}

// FanoutJoined frees after every kernel.
func (b *Builder) FanoutJoined(n int) error {
	s, err := b.Alloc()
	if err != nil {
		return err
	}
	var users []Node
	for i := 0; i < n; i++ {
		k, err := b.Kernel(s.ptr, s.Node)
		if err != nil {
			return err
		}
		users = append(users, k)
	}
	return b.Free(s.ptr, users...)
}

// Chain runs the kernels one after the other and frees after the last.
func (b *Builder) Chain(n int) error {
	s, err := b.Alloc()
	if err != nil {
		return err
	}
	prev := s.Node
	for i := 0; i < n; i++ {
		if prev, err = b.Kernel(s.ptr, prev); err != nil {
			return err
		}
	}
	return b.Free(s.ptr, prev)
}

// Pair runs two kernels over the scratch, the second after the first, and
// frees it after the first only.
func (b *Builder) Pair() error {
	s, err := b.Alloc()
	if err != nil {
		return err
	}
	k1, err := b.Kernel(s.ptr, s.Node)
	if err != nil {
		return err
	}
	if _, err := b.Kernel(s.ptr, k1); err != nil {
		return err
	}
	return b.Free(s.ptr, k1) // MISSED: kernel and free nodes added by wrappers (Builder.Kernel, Builder.Free) are not in the graph HL3003 builds; graphfree has no summary of a node-adding wrapper (its node, uses and dependency parameters)
}

// PairOrdered frees after the second.
func (b *Builder) PairOrdered() error {
	s, err := b.Alloc()
	if err != nil {
		return err
	}
	k1, err := b.Kernel(s.ptr, s.Node)
	if err != nil {
		return err
	}
	k2, err := b.Kernel(s.ptr, k1)
	if err != nil {
		return err
	}
	return b.Free(s.ptr, k2)
}

// Teardown frees the persistent weights with a free node: they did not
// come from an alloc node.
func (b *Builder) Teardown(after ...Node) error { // want Teardown:`freesParam\[-1\.weights\]`
	return b.Free(b.weights, after...) // want `frees b.weights, which is device memory from hipMalloc`
}

// Close frees the weights outside the graph.
func (b *Builder) Close() error { // want Close:`freesParam\[host:-1\.weights\]`
	C.hipGraphDestroy(b.g)
	return ok(C.hipFree(b.weights))
}

// Capture records a step by stream capture: scratch allocated and freed
// in stream order on the captured stream.
func Capture(s C.hipStream_t, fn C.hipFunction_t, n int) (C.hipGraph_t, error) {
	var g C.hipGraph_t
	if err := ok(C.hipStreamBeginCapture(s, C.hipStreamCaptureModeGlobal)); err != nil {
		return g, err
	}
	var tmp unsafe.Pointer
	C.hipMallocAsync(&tmp, C.size_t(4*n), s)
	launch(fn, s, tmp, n)
	C.hipFreeAsync(tmp, s)
	err := ok(C.hipStreamEndCapture(s, &g))
	return g, err
}

// CaptureAndFree adds a free node for memory the capture already freed.
func CaptureAndFree(s C.hipStream_t, fn C.hipFunction_t, n int) (C.hipGraph_t, error) {
	var g C.hipGraph_t
	if err := ok(C.hipStreamBeginCapture(s, C.hipStreamCaptureModeGlobal)); err != nil {
		return g, err
	}
	var tmp unsafe.Pointer
	C.hipMallocAsync(&tmp, C.size_t(4*n), s)
	launch(fn, s, tmp, n)
	C.hipFreeAsync(tmp, s)
	if err := ok(C.hipStreamEndCapture(s, &g)); err != nil {
		return g, err
	}
	var free C.hipGraphNode_t
	return g, ok(C.hipGraphAddMemFreeNode(&free, g, nil, 0, tmp)) // want `tmp`
}

// Warm allocates the scratch in stream order before capture starts and
// frees it with a free node of the captured graph.
func Warm(s C.hipStream_t, fn C.hipFunction_t, n int) (C.hipGraph_t, error) {
	var g C.hipGraph_t
	var tmp unsafe.Pointer
	if err := ok(C.hipMallocAsync(&tmp, C.size_t(4*n), s)); err != nil {
		return g, err
	}
	if err := ok(C.hipStreamBeginCapture(s, C.hipStreamCaptureModeGlobal)); err != nil {
		return g, err
	}
	launch(fn, s, tmp, n)
	if err := ok(C.hipStreamEndCapture(s, &g)); err != nil {
		return g, err
	}
	var free C.hipGraphNode_t
	return g, ok(C.hipGraphAddMemFreeNode(&free, g, nil, 0, tmp)) // want `which hipMallocAsync allocated outside stream capture`
}

// WarmStreamOrdered frees the pre-capture scratch in stream order after
// the graph has run.
func WarmStreamOrdered(s C.hipStream_t, fn C.hipFunction_t, n int) error {
	var g C.hipGraph_t
	var tmp unsafe.Pointer
	if err := ok(C.hipMallocAsync(&tmp, C.size_t(4*n), s)); err != nil {
		return err
	}
	if err := ok(C.hipStreamBeginCapture(s, C.hipStreamCaptureModeGlobal)); err != nil {
		return err
	}
	launch(fn, s, tmp, n)
	if err := ok(C.hipStreamEndCapture(s, &g)); err != nil {
		return err
	}
	var exec C.hipGraphExec_t
	if err := ok(C.hipGraphInstantiate(&exec, g, nil, nil, 0)); err != nil {
		return err
	}
	defer C.hipGraphExecDestroy(exec)
	C.hipGraphLaunch(exec, s)
	return ok(C.hipFreeAsync(tmp, s))
}

func launch(fn C.hipFunction_t, s C.hipStream_t, p unsafe.Pointer, n int) {
	cn := C.int(n)
	args := []unsafe.Pointer{unsafe.Pointer(&p), unsafe.Pointer(&cn)}
	C.hipModuleLaunchKernel(fn, 1, 1, 1, 256, 1, 1, 0, s, &args[0], nil)
}
