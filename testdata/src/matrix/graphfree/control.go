package graphfree

import (
	"context"
	"fmt"
	"iter"
	"unsafe"
)

//matrix:hazard defer-loop
func deferLoopDevice(gr *Graph, deps []node) {
	for _, d := range deps {
		p := deviceAlloc()
		defer gr.Free(d, p) // want `which is device memory from hipMalloc \(via deviceAlloc\), not a graph allocation`
	}
}

//matrix:twin defer-loop
func deferLoopGraph(gr *Graph) {
	for range 3 {
		a, p, err := gr.Alloc(n)
		if err != nil {
			return
		}
		defer gr.Free(a, p)
	}
}

// A deferred call's arguments are evaluated at the defer statement: the
// free gets the graph allocation, not the device memory p holds later.
//
//matrix:twin defer-loop
func deferArgReassigned(gr *Graph) {
	for range 2 {
		a, p, err := gr.Alloc(n)
		if err != nil {
			return
		}
		defer gr.Free(a, p)
		p = deviceAlloc()
		defer deviceFree(p)
	}
}

//matrix:hazard defer-cond
func deferCondDevice(gr *Graph, dep node, scratch bool) {
	if scratch {
		defer gr.Free(dep, deviceAlloc()) // want `which is device memory from hipMalloc \(via deviceAlloc\), not a graph allocation`
	}
}

//matrix:twin defer-cond
func deferCondGraph(gr *Graph, scratch bool) {
	if scratch {
		a, p, err := gr.Alloc(n)
		if err != nil {
			return
		}
		defer gr.Free(a, p)
	}
}

//matrix:hazard defer-named-result
func namedDevice(gr *Graph, dep node) (freed node, err error) {
	p := deviceAlloc()
	defer func() {
		if err == nil {
			freed, err = gr.Free(dep, p) // want `which is device memory from hipMalloc \(via deviceAlloc\), not a graph allocation`
		}
	}()
	return nil, nil
}

//matrix:twin defer-named-result
func namedGraph(gr *Graph) (freed node, err error) {
	a, p, err := gr.Alloc(n)
	if err != nil {
		return nil, err
	}
	defer func() {
		if err == nil {
			freed, err = gr.Free(a, p)
		}
	}()
	return nil, nil
}

//matrix:hazard defer-recover
func recoverDevice(gr *Graph, dep node) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%v", r)
		}
	}()
	_, err = gr.Free(dep, deviceAlloc()) // want `which is device memory from hipMalloc \(via deviceAlloc\), not a graph allocation`
	return err
}

//matrix:twin defer-recover
func recoverGraph(gr *Graph) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%v", r)
		}
	}()
	a, p, err := gr.Alloc(n)
	if err != nil {
		return err
	}
	_, err = gr.Free(a, p)
	return err
}

//matrix:hazard early-return
func earlyDevice(gr *Graph, dep node, skip bool) error {
	p := deviceAlloc()
	if skip {
		return nil
	}
	_, err := gr.Free(dep, p) // want `which is device memory from hipMalloc \(via deviceAlloc\), not a graph allocation`
	return err
}

//matrix:twin early-return
func earlyGraph(gr *Graph, skip bool) error {
	a, p, err := gr.Alloc(n)
	if err != nil || skip {
		return err
	}
	_, err = gr.Free(a, p)
	return err
}

//matrix:hazard goto
func gotoDevice(gr *Graph, dep node, retry bool) error {
	p := deviceAlloc()
again:
	if _, err := gr.Free(dep, p); err != nil && retry { // want `which is device memory from hipMalloc \(via deviceAlloc\), not a graph allocation`
		retry = false
		goto again
	}
	return nil
}

//matrix:twin goto
func gotoGraph(gr *Graph, retry bool) error {
	a, p, err := gr.Alloc(n)
	if err != nil {
		return err
	}
again:
	if _, err := gr.Free(a, p); err != nil && retry {
		retry = false
		goto again
	}
	return nil
}

//matrix:hazard labelled-break
func labelledDevice(gr *Graph, deps [][]node) {
outer:
	for _, ds := range deps {
		for _, d := range ds {
			if d == nil {
				continue outer
			}
			gr.Free(d, deviceAlloc()) // want `which is device memory from hipMalloc \(via deviceAlloc\), not a graph allocation`
			break outer
		}
	}
}

//matrix:twin labelled-break
func labelledGraph(gr *Graph, sizes [][]int) {
outer:
	for _, ss := range sizes {
		for _, s := range ss {
			if s == 0 {
				continue outer
			}
			a, p, err := gr.Alloc(s)
			if err != nil {
				break outer
			}
			gr.Free(a, p)
		}
	}
}

//matrix:hazard switch-fallthrough
func fallthroughTwice(gr *Graph, mode int) {
	a, p, err := gr.Alloc(n)
	if err != nil {
		return
	}
	switch mode {
	case 0:
		gr.Free(a, p)
		fallthrough
	case 1:
		gr.Free(a, p) // want `Free frees p, which Free already freed`
	}
}

// Case 0 frees only on its early return, and falls through otherwise.
//
//matrix:twin switch-fallthrough
func fallthroughEarlyFree(gr *Graph, mode int, early bool) {
	a, p, err := gr.Alloc(n)
	if err != nil {
		return
	}
	switch mode {
	case 0:
		if early {
			gr.Free(a, p)
			return
		}
		fallthrough
	case 1:
		gr.Free(a, p)
	}
}

//matrix:twin switch-fallthrough
func fallthroughOnce(gr *Graph, mode int) {
	a, p, err := gr.Alloc(n)
	if err != nil {
		return
	}
	switch mode {
	case 0:
		fallthrough
	case 1:
		gr.Free(a, p)
	}
}

//matrix:hazard type-switch
func typeSwitchDevice(gr *Graph, dep node, buf any) {
	switch b := buf.(type) {
	case unsafe.Pointer:
		gr.Free(dep, b)
	case nil:
		gr.Free(dep, deviceAlloc()) // want `which is device memory from hipMalloc \(via deviceAlloc\), not a graph allocation`
	}
}

//matrix:twin type-switch
func typeSwitchGraph(gr *Graph, buf any) {
	switch buf.(type) {
	case nil:
		a, p, err := gr.Alloc(n)
		if err == nil {
			gr.Free(a, p)
		}
	}
}

//matrix:hazard select-branch
func selectDevice(ctx context.Context, gr *Graph, dep node, ready <-chan unsafe.Pointer) {
	select {
	case <-ctx.Done():
		gr.Free(dep, deviceAlloc()) // want `which is device memory from hipMalloc \(via deviceAlloc\), not a graph allocation`
	case p := <-ready:
		gr.Free(dep, p)
	}
}

//matrix:twin select-branch
func selectGraph(ctx context.Context, gr *Graph) {
	a, p, err := gr.Alloc(n)
	if err != nil {
		return
	}
	select {
	case <-ctx.Done():
		gr.Free(a, p)
	default:
		gr.Free(a, p)
	}
}

//matrix:hazard panic-path
func panicDevice(gr *Graph, dep node, size int) {
	if size < 0 {
		panic("negative size")
	}
	gr.Free(dep, deviceAlloc()) // want `which is device memory from hipMalloc \(via deviceAlloc\), not a graph allocation`
}

//matrix:twin panic-path
func panicGraph(gr *Graph, size int) {
	if size < 0 {
		panic("negative size")
	}
	a, p, err := gr.Alloc(size)
	if err == nil {
		gr.Free(a, p)
	}
}

//matrix:hazard range-slice
func rangeSliceDevice(gr *Graph, dep node, bufs []unsafe.Pointer) {
	bufs = append(bufs, deviceAlloc())
	for _, b := range bufs {
		gr.Free(dep, b) // want `which is device memory from hipMalloc \(via deviceAlloc\), not a graph allocation`
	}
}

//matrix:twin range-slice
func rangeSliceGraph(gr *Graph) {
	for range 2 {
		a, p, err := gr.Alloc(n)
		if err != nil {
			return
		}
		gr.Free(a, p)
	}
}

//matrix:hazard range-map
func rangeMapDevice(gr *Graph, dep node) {
	bufs := map[string]unsafe.Pointer{"x": deviceAlloc()}
	for _, b := range bufs {
		gr.Free(dep, b) // want `which is device memory from hipMalloc \(via deviceAlloc\), not a graph allocation`
	}
}

//matrix:twin range-map
func rangeMapGraph(gr *Graph, sizes map[string]int) {
	for _, s := range sizes {
		a, p, err := gr.Alloc(s)
		if err != nil {
			return
		}
		gr.Free(a, p)
	}
}

//matrix:hazard range-chan
func rangeChanDevice(gr *Graph, dep node, bufs chan unsafe.Pointer) {
	bufs <- deviceAlloc()
	close(bufs)
	for b := range bufs {
		gr.Free(dep, b) // want `which is device memory from hipMalloc \(via deviceAlloc\), not a graph allocation`
	}
}

//matrix:twin range-chan
func rangeChanGraph(gr *Graph, sizes <-chan int) {
	for s := range sizes {
		a, p, err := gr.Alloc(s)
		if err != nil {
			return
		}
		gr.Free(a, p)
	}
}

//matrix:hazard range-int
func rangeIntDevice(gr *Graph, dep node) {
	for range 4 {
		gr.Free(dep, deviceAlloc()) // want `which is device memory from hipMalloc \(via deviceAlloc\), not a graph allocation`
	}
}

//matrix:twin range-int
func rangeIntGraph(gr *Graph) {
	for range 4 {
		a, p, err := gr.Alloc(n)
		if err != nil {
			return
		}
		gr.Free(a, p)
	}
}

// Buffers yields device buffers allocated outside the graph.
func Buffers(k int) iter.Seq[unsafe.Pointer] {
	return func(yield func(unsafe.Pointer) bool) {
		for range k {
			if !yield(deviceAlloc()) {
				return
			}
		}
	}
}

//matrix:hazard range-func
func rangeFuncDevice(gr *Graph, dep node) {
	for p := range Buffers(2) {
		gr.Free(dep, p) // want `which is device memory from hipMalloc \(via deviceAlloc\), not a graph allocation`
	}
}

//matrix:twin range-func
func rangeFuncGraph(gr *Graph, sizes iter.Seq[int]) {
	for s := range sizes {
		a, p, err := gr.Alloc(s)
		if err != nil {
			return
		}
		gr.Free(a, p)
	}
}

//matrix:hazard two-loops
func twoLoopsTwice(gr *Graph) {
	var nodes []node
	var ptrs []unsafe.Pointer
	for range 2 {
		a, p, err := gr.Alloc(n)
		if err != nil {
			return
		}
		nodes, ptrs = append(nodes, a), append(ptrs, p)
	}
	for i, p := range ptrs {
		gr.Free(nodes[i], p)
	}
	for i, p := range ptrs {
		gr.Free(nodes[i], p) // want `Free frees p, which Free already freed`
	}
}

//matrix:twin two-loops
func twoLoopsOnce(gr *Graph) {
	var nodes []node
	var ptrs []unsafe.Pointer
	for range 2 {
		a, p, err := gr.Alloc(n)
		if err != nil {
			return
		}
		nodes, ptrs = append(nodes, a), append(ptrs, p)
	}
	for i, p := range ptrs {
		gr.Free(nodes[i], p)
	}
}
