package graphfree

import (
	"sync"
	"unsafe"
)

//matrix:hazard closure-in-place
func inPlaceDevice(gr *Graph, dep node) {
	func() { gr.Free(dep, deviceAlloc()) }() // want `which is device memory from hipMalloc \(via deviceAlloc\), not a graph allocation`
}

//matrix:twin closure-in-place
func inPlaceGraph(gr *Graph) {
	a, p, err := gr.Alloc(n)
	if err != nil {
		return
	}
	func() { gr.Free(a, p) }()
}

//matrix:gap closure-stored: a free in a stored closure does not see the provenance of the variable it captures
func storedDevice(gr *Graph, dep node) {
	p := deviceAlloc()
	release := func() { gr.Free(dep, p) }
	release()
}

//matrix:twin closure-stored
func storedGraph(gr *Graph) {
	a, p, err := gr.Alloc(n)
	if err != nil {
		return
	}
	release := func() { gr.Free(a, p) }
	release()
}

//matrix:gap closure-deferred: a free in a deferred closure does not see the provenance of the variable it captures
func deferredDevice(gr *Graph, dep node) {
	p := deviceAlloc()
	defer func() { gr.Free(dep, p) }()
}

//matrix:twin closure-deferred
func deferredGraph(gr *Graph) {
	a, p, err := gr.Alloc(n)
	if err != nil {
		return
	}
	defer func() { gr.Free(a, p) }()
}

//matrix:gap closure-go: a free in a goroutine closure does not see the provenance of the variable it captures
func goDevice(gr *Graph, dep node) {
	var wg sync.WaitGroup
	wg.Add(1)
	p := deviceAlloc()
	go func() {
		defer wg.Done()
		gr.Free(dep, p)
	}()
	wg.Wait()
}

//matrix:twin closure-go
func goGraph(gr *Graph) {
	a, p, err := gr.Alloc(n)
	if err != nil {
		return
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		gr.Free(a, p)
	}()
	wg.Wait()
}

func build(gr *Graph, step func(*Graph) error) error { return step(gr) }

//matrix:hazard closure-helper
func helperDevice(gr *Graph, dep node) error {
	p := deviceAlloc()
	return build(gr, func(g *Graph) error {
		_, err := g.Free(dep, p) // want `which is device memory from hipMalloc \(via deviceAlloc\), not a graph allocation`
		return err
	})
}

//matrix:twin closure-helper
func helperGraph(gr *Graph) error {
	return build(gr, func(g *Graph) error {
		a, p, err := g.Alloc(n)
		if err != nil {
			return err
		}
		_, err = g.Free(a, p)
		return err
	})
}

// freeLater keeps frees to add when the graph is finished.
var freeLater []func()

func addFreeLater(gr *Graph, dep node, p unsafe.Pointer) { // want addFreeLater:"freesParam\\[2\\]"
	freeLater = append(freeLater, func() { gr.Free(dep, p) })
}
