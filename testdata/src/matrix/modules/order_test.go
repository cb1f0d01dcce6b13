package modules

import (
	"fmt"
	"os"
	"testing"
)

var suiteMod *Module

//matrix:hazard order-testmain
func TestMain(m *testing.M) {
	md, err := Open("suite.hsaco") // want `module md loaded by Open is never unloaded: os.Exit ends the program without running deferred calls`
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

// runSuiteAndExit is the body of a TestMain that unloads before it exits.
//
//matrix:twin order-testmain
func runSuiteAndExit(m *testing.M) {
	md, err := Open("suite.hsaco")
	if err != nil {
		os.Exit(0)
	}
	suiteMod = md
	code := m.Run()
	md.Close()
	os.Exit(code)
}

//matrix:hazard order-subtest
func TestKernelsParallel(t *testing.T) {
	md, err := Open("k.hsaco")
	if err != nil {
		t.Skip(err)
	}
	defer md.Close() // want `the deferred unload of module md runs when the function returns, while the parallel subtest started at line \d+`
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

//matrix:twin order-subtest
func TestKernelsSequential(t *testing.T) {
	md, err := Open("k.hsaco")
	if err != nil {
		t.Skip(err)
	}
	defer md.Close()
	for _, name := range []string{"a", "b"} {
		t.Run(name, func(t *testing.T) {
			if err := md.Lookup(name); err != nil {
				t.Error(err)
			}
		})
	}
}

//matrix:hazard order-example
func ExampleOpen() {
	md, err := Open("k.hsaco") // want `module md loaded by Open is not unloaded at the end of the function`
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

//matrix:hazard order-benchmark
func BenchmarkLoad(b *testing.B) {
	for b.Loop() {
		md, err := Open("k.hsaco") // want `module md loaded by Open on every iteration is never unloaded`
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
