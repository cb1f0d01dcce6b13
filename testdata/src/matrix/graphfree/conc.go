package graphfree

import (
	"sync"
	"unsafe"
)

//matrix:hazard conc-waitgroup
func waitGroupDevice(gr *Graph, dep node) {
	var wg sync.WaitGroup
	var mu sync.Mutex
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p := deviceAlloc()
			mu.Lock()
			gr.Free(dep, p) // want `which is device memory from hipMalloc \(via deviceAlloc\), not a graph allocation`
			mu.Unlock()
		}()
	}
	wg.Wait()
}

//matrix:twin conc-waitgroup
func waitGroupGraph(gr *Graph) {
	var wg sync.WaitGroup
	var mu sync.Mutex
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mu.Lock()
			defer mu.Unlock()
			a, p, err := gr.Alloc(n)
			if err == nil {
				gr.Free(a, p)
			}
		}()
	}
	wg.Wait()
}

//matrix:hazard conc-chan-join
func chanJoinDevice(gr *Graph, dep node) {
	done := make(chan unsafe.Pointer)
	go func() { done <- deviceAlloc() }()
	gr.Free(dep, <-done) // want `which is device memory from hipMalloc \(via deviceAlloc\), not a graph allocation`
}

//matrix:twin conc-chan-join
func chanJoinGraph(gr *Graph) {
	done := make(chan struct{})
	go func() {
		a, p, err := gr.Alloc(n)
		if err == nil {
			gr.Free(a, p)
		}
		close(done)
	}()
	<-done
}

//matrix:twin conc-chan-join
func chanJoinApart(gr *Graph) {
	// The staging buffer and the graph buffer travel on channels of
	// their own: only the graph's is freed by a node.
	staging, bufs := make(chan unsafe.Pointer), make(chan unsafe.Pointer)
	nodes := make(chan node, 1)
	go func() { staging <- deviceAlloc() }()
	go func() {
		a, p, err := gr.Alloc(n)
		if err == nil {
			nodes <- a
			bufs <- p
		}
	}()
	<-staging
	gr.Free(<-nodes, <-bufs)
}

// Group runs functions in goroutines and waits for them.
type Group struct{ wg sync.WaitGroup }

// Go runs f in a goroutine.
func (g *Group) Go(f func()) {
	g.wg.Add(1)
	go func() { defer g.wg.Done(); f() }()
}

// Wait waits for every f.
func (g *Group) Wait() { g.wg.Wait() }

//matrix:hazard conc-errgroup
func groupDevice(gr *Graph, dep node) {
	var g Group
	p := deviceAlloc()
	g.Go(func() { gr.Free(dep, p) }) // want `which is device memory from hipMalloc \(via deviceAlloc\), not a graph allocation`
	g.Wait()
}

//matrix:twin conc-errgroup
func groupGraph(gr *Graph) {
	var g Group
	g.Go(func() {
		a, p, err := gr.Alloc(n)
		if err == nil {
			gr.Free(a, p)
		}
	})
	g.Wait()
}

var (
	lastNode node
	lastBuf  unsafe.Pointer
	lastMu   sync.Mutex
)

//matrix:hazard conc-pkg-handles
func pkgHandlesTwice(gr *Graph) {
	lastMu.Lock()
	defer lastMu.Unlock()
	a, p, err := gr.Alloc(n)
	if err != nil {
		return
	}
	lastNode, lastBuf = a, p
	gr.Free(lastNode, lastBuf)
	gr.Free(lastNode, lastBuf) // want `which Free already freed`
}

//matrix:twin conc-pkg-handles
func pkgHandlesOnce(gr *Graph) {
	lastMu.Lock()
	defer lastMu.Unlock()
	a, p, err := gr.Alloc(n)
	if err != nil {
		return
	}
	lastNode, lastBuf = a, p
	gr.Free(lastNode, lastBuf)
}

//matrix:na rt-blocking-stream: a free node is ordered by the graph's dependency edges, not by streams
//matrix:na rt-legacy-stream: a free node is ordered by the graph's dependency edges, not by streams
//matrix:na rt-event-wrapper: a free node is ordered by the graph's dependency edges, not by events
//matrix:na rt-runtime-kind: copy kinds belong to copy sync; no free node takes one
