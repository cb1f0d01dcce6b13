package unifiedmem

import (
	"fmt"
	"os"
	"testing"
)

// saxpy is the kernel every test launches, opened once by TestMain.
var saxpy *Saxpy

// TestMain opens the code object named by UNIFIEDMEM_CODE_OBJECT and warms
// up both shared-memory paths, so that no test pays for the first page
// faults. It checks neither path's XNACK requirement: on a GPU with XNACK
// off the zero-copy warm-up aborts the whole test binary before any test
// runs.
func TestMain(m *testing.M) {
	path := os.Getenv("UNIFIEDMEM_CODE_OBJECT")
	if path == "" {
		fmt.Println("skipping: UNIFIEDMEM_CODE_OBJECT names no code object")
		os.Exit(0)
	}
	var err error
	saxpy, err = Open(path, 0)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	x, y := ramp(blockSize), make([]float32, blockSize)
	if err := saxpy.ZeroCopy(1, x, y); err != nil { // hazard: HL4001
		fmt.Fprintln(os.Stderr, "warm-up:", err)
		os.Exit(1)
	}
	if err := saxpy.Managed(1, x, y); err != nil { // hazard: HL4002
		fmt.Fprintln(os.Stderr, "warm-up:", err)
		os.Exit(1)
	}
	code := m.Run()
	saxpy.Close()
	os.Exit(code)
}

// ramp returns 0, 1, ..., n-1.
func ramp(n int) []float32 {
	v := make([]float32, n)
	for i := range v {
		v[i] = float32(i)
	}
	return v
}

// checkSaxpy compares y, computed from y0 = 1 everywhere, with a·x + 1.
func checkSaxpy(t *testing.T, a float32, x, y []float32) {
	t.Helper()
	for i := range x {
		if want := a*x[i] + 1; y[i] != want {
			t.Fatalf("y[%d] = %v, want %v", i, y[i], want)
		}
	}
}

func ones(n int) []float32 {
	v := make([]float32, n)
	for i := range v {
		v[i] = 1
	}
	return v
}

// TestManaged checks the managed-memory path with no skip: on an XNACK-off
// CI node it runs on pinned host memory instead of what it means to test.
func TestManaged(t *testing.T) {
	x, y := ramp(1<<20), ones(1<<20)
	if err := saxpy.Managed(2, x, y); err != nil { // hazard: HL4004
		t.Fatal(err)
	}
	checkSaxpy(t, 2, x, y)
}

// TestZeroCopy skips where the GPU cannot fault host pages in.
func TestZeroCopy(t *testing.T) {
	if !XNACKEnabled(0) {
		t.Skip("XNACK is off: run with HSA_XNACK=1 on an xnack-capable GPU")
	}
	x, y := ramp(1<<20), ones(1<<20)
	if err := saxpy.ZeroCopy(2, x, y); err != nil {
		t.Fatal(err)
	}
	checkSaxpy(t, 2, x, y)
}

// TestManagedMigrating skips unless managed memory migrates.
func TestManagedMigrating(t *testing.T) {
	on, err := PageableAccess(0)
	if err != nil {
		t.Fatal(err)
	}
	if !on {
		t.Skip("pageable memory access is off: managed memory would not migrate")
	}
	x, y := ramp(1<<20), ones(1<<20)
	if err := saxpy.Managed(2, x, y); err != nil {
		t.Fatal(err)
	}
	checkSaxpy(t, 2, x, y)
}

// TestRun needs no skip: Run falls back to device memory without XNACK.
func TestRun(t *testing.T) {
	x, y := ramp(1<<20), ones(1<<20)
	if err := saxpy.Run(2, x, y); err != nil {
		t.Fatal(err)
	}
	checkSaxpy(t, 2, x, y)
	y = ones(len(x))
	if err := saxpy.RunManaged(2, x, y); err != nil {
		t.Fatal(err)
	}
	checkSaxpy(t, 2, x, y)
}
