package graphfree

import (
	"fmt"
	"os"
	"testing"
)

//matrix:hazard order-testmain
func TestMain(m *testing.M) {
	gr := &Graph{}
	gr.Free(nil, deviceAlloc()) // want `which is device memory from hipMalloc \(via deviceAlloc\), not a graph allocation`
	os.Exit(m.Run())
}

//matrix:twin order-testmain
func setupSuite() {
	gr := &Graph{}
	a, p, err := gr.Alloc(n)
	if err == nil {
		gr.Free(a, p)
	}
}

//matrix:hazard order-subtest
func TestSubtestDevice(t *testing.T) {
	gr := &Graph{}
	t.Run("free", func(t *testing.T) {
		gr.Free(nil, deviceAlloc()) // want `which is device memory from hipMalloc \(via deviceAlloc\), not a graph allocation`
	})
}

//matrix:twin order-subtest
func TestSubtestGraph(t *testing.T) {
	gr := &Graph{}
	t.Run("free", func(t *testing.T) {
		a, p, err := gr.Alloc(n)
		if err != nil {
			t.Skip(err)
		}
		gr.Free(a, p)
	})
}

//matrix:hazard order-example
func ExampleGraph_Free() {
	gr := &Graph{}
	_, err := gr.Free(nil, deviceAlloc()) // want `which is device memory from hipMalloc \(via deviceAlloc\), not a graph allocation`
	fmt.Println(err)
	// Output: <nil>
}

//matrix:twin order-example
func ExampleGraph_Alloc() {
	gr := &Graph{}
	a, p, err := gr.Alloc(n)
	if err == nil {
		gr.Free(a, p)
	}
	fmt.Println(err)
	// Output: <nil>
}

//matrix:hazard order-benchmark
func BenchmarkFreeDevice(b *testing.B) {
	gr := &Graph{}
	for b.Loop() {
		gr.Free(nil, deviceAlloc()) // want `which is device memory from hipMalloc \(via deviceAlloc\), not a graph allocation`
	}
}

//matrix:twin order-benchmark
func BenchmarkFreeGraph(b *testing.B) {
	gr := &Graph{}
	for b.Loop() {
		a, p, err := gr.Alloc(n)
		if err == nil {
			gr.Free(a, p)
		}
	}
}
