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

//matrix:hazard closure-stored
func storedDevice(gr *Graph, dep node) {
	p := deviceAlloc()
	release := func() { gr.Free(dep, p) } // want `which is device memory from hipMalloc \(via deviceAlloc\), not a graph allocation`
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

// The closure reads p when it is called, not where it is written: by then
// p holds a graph allocation.
//
//matrix:twin closure-stored
func storedCalledLater(gr *Graph) {
	var a node
	p := deviceAlloc()
	release := func() { gr.Free(a, p) }
	deviceFree(p)
	var err error
	if a, p, err = gr.Alloc(n); err != nil {
		return
	}
	release()
}

// A closure kept and never called frees nothing.
//
//matrix:twin closure-stored
func storedNeverCalled(gr *Graph, dep node, hooks map[string]func()) {
	p := deviceAlloc()
	release := func() { gr.Free(dep, p) }
	hooks["release"] = release // never run: the hook table is dropped
	deviceFree(p)
}

//matrix:hazard closure-deferred
func deferredDevice(gr *Graph, dep node) {
	p := deviceAlloc()
	defer func() { gr.Free(dep, p) }() // want `which is device memory from hipMalloc \(via deviceAlloc\), not a graph allocation`
}

//matrix:twin closure-deferred
func deferredGraph(gr *Graph) {
	a, p, err := gr.Alloc(n)
	if err != nil {
		return
	}
	defer func() { gr.Free(a, p) }()
}

// The deferred closure reads p at exit, after the graph allocation
// replaced the device memory.
//
//matrix:twin closure-deferred
func deferredReadsAtExit(gr *Graph) error {
	var a node
	p := deviceAlloc()
	defer func() { gr.Free(a, p) }()
	deviceFree(p)
	var err error
	a, p, err = gr.Alloc(n)
	return err
}

//matrix:hazard closure-go
func goDevice(gr *Graph, dep node) {
	var wg sync.WaitGroup
	wg.Add(1)
	p := deviceAlloc()
	go func() {
		defer wg.Done()
		gr.Free(dep, p) // want `which is device memory from hipMalloc \(via deviceAlloc\), not a graph allocation`
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
