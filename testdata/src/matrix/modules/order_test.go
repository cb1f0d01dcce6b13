package modules

import (
	"fmt"
	"os"
	"testing"
)

var suiteMod *Module

//matrix:gap order-testmain: os.Exit skips deferred unloads; the model runs defers at every exit
func TestMain(m *testing.M) {
	md, err := Open("suite.hsaco")
	if err != nil {
		fmt.Println("skipping: no GPU")
		os.Exit(0)
	}
	suiteMod = md
	defer md.Close()
	os.Exit(m.Run())
}

//matrix:twin order-testmain
func runSuite(m *testing.M) int {
	md, err := Open("suite.hsaco")
	if err != nil {
		return 0
	}
	defer md.Close()
	suiteMod = md
	return m.Run()
}

//matrix:gap order-subtest: parallel subtests run after the parent function returns, so its deferred unload runs first; not modelled
func TestKernelsParallel(t *testing.T) {
	md, err := Open("k.hsaco")
	if err != nil {
		t.Skip(err)
	}
	defer md.Close()
	for _, name := range []string{"a", "b"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if err := md.Lookup(name); err != nil {
				t.Error(err)
			}
		})
	}
}

//matrix:twin order-subtest
func TestKernelsParallelCleanup(t *testing.T) {
	md, err := Open("k.hsaco")
	if err != nil {
		t.Skip(err)
	}
	t.Cleanup(func() { md.Close() })
	for _, name := range []string{"a", "b"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if err := md.Lookup(name); err != nil {
				t.Error(err)
			}
		})
	}
}

//matrix:gap order-example: the leak is through Open (a wrapper of a wrapper) in a test file: not reported
func ExampleOpen() {
	md, err := Open("k.hsaco")
	if err != nil {
		return
	}
	fmt.Println(md.Lookup("saxpy") == nil)
	// Output: true
}

//matrix:twin order-example
func ExampleModule_Close() {
	md, err := Open("k.hsaco")
	if err != nil {
		return
	}
	defer md.Close()
	fmt.Println(md.Lookup("saxpy") == nil)
	// Output: true
}

//matrix:gap order-benchmark: a module opened in a benchmark loop and never closed is not reported
func BenchmarkLoad(b *testing.B) {
	for b.Loop() {
		md, err := Open("k.hsaco")
		if err != nil {
			b.Skip(err)
		}
		md.Lookup("saxpy")
	}
}

//matrix:twin order-benchmark
func BenchmarkLoadClose(b *testing.B) {
	for b.Loop() {
		md, err := Open("k.hsaco")
		if err != nil {
			b.Skip(err)
		}
		md.Lookup("saxpy")
		md.Close()
	}
}
