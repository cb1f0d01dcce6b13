package graphfree

import "testing"

//matrix:hazard closure-cleanup
func TestCleanupDevice(t *testing.T) {
	gr, dep := &Graph{}, node(nil)
	p := deviceAlloc()
	t.Cleanup(func() { gr.Free(dep, p) }) // want `which is device memory from hipMalloc \(via deviceAlloc\), not a graph allocation`
}

//matrix:twin closure-cleanup
func TestCleanupGraph(t *testing.T) {
	gr := &Graph{}
	a, p, err := gr.Alloc(n)
	if err != nil {
		t.Skip(err)
	}
	t.Cleanup(func() { gr.Free(a, p) })
}
