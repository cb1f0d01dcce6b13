package graphfree

import "testing"

//matrix:gap closure-cleanup: a free in a t.Cleanup closure does not see the provenance of the variable it captures
func TestCleanupDevice(t *testing.T) {
	gr, dep := &Graph{}, node(nil)
	p := deviceAlloc()
	t.Cleanup(func() { gr.Free(dep, p) })
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
