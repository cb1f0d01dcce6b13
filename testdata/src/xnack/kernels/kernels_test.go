package kernels

import (
	"testing"

	"xnack/xnackguard"
)

func TestManagedUnguarded(t *testing.T) {
	p := NewManaged(1024) // want `TestManagedUnguarded reaches managed memory \(hipMallocManaged in NewManaged\) with no XNACK skip guard: on a GPU without XNACK it does not migrate`
	_ = p
}

func TestMallocUnguarded(t *testing.T) {
	LaunchDevice(16)
	LaunchMalloc(16) // want `TestMallocUnguarded reaches system memory \(C.malloc memory \(buf\) passed to hipModuleLaunchKernel in LaunchMalloc\) with no XNACK skip guard: on a GPU without XNACK it faults`
	NewManaged(16)   // one report per test: this one is a related position
}

func TestSkipArch(t *testing.T) {
	if !xnackguard.Enabled(0) {
		t.Skip("XNACK is off")
	}
	LaunchMalloc(16)
}

func TestSkipHelper(t *testing.T) {
	xnackguard.SkipUnlessXNACK(t)
	LaunchGoSlice(16)
}

func requireXNACK(t *testing.T) {
	ok, err := xnackguard.PageableAccess(0)
	if err != nil {
		t.Fatal(err)
	}
	if !ok {
		t.Skip("no pageable memory access")
	}
}

func TestSkipLocalHelper(t *testing.T) {
	requireXNACK(t)
	AdviseManaged(16)
}

func TestDeviceOnly(t *testing.T) {
	LaunchDevice(16)
	LaunchPinned(16)
	CopyFromGo(make([]float32, 16))
}

func TestGuardedInside(t *testing.T) {
	GuardedArch(16)
	GuardedWrapper(16)
	GuardedPanic(16)
}

func TestSubtests(t *testing.T) {
	t.Run("managed", func(t *testing.T) { // want `TestSubtests reaches managed memory`
		NewManaged(16)
	})
}

func TestSubtestSkips(t *testing.T) {
	t.Run("managed", func(t *testing.T) {
		if !xnackOn() {
			t.Skip("XNACK is off")
		}
		NewManaged(16)
	})
}

// A subtest that skips does not guard what its parent does next.
func TestSkippingSubtestThenUse(t *testing.T) {
	t.Run("check", func(t *testing.T) {
		xnackguard.SkipUnlessXNACK(t)
	})
	LaunchMalloc(16) // want `TestSkippingSubtestThenUse reaches system memory`
}

// Setting HSA_XNACK inside a test is no guard: other tests may have
// initialized the runtime already.
func TestSetenvInTest(t *testing.T) {
	t.Setenv("HSA_XNACK", "1")
	NewManaged(16) // want `TestSetenvInTest reaches managed memory`
}

func BenchmarkMalloc(b *testing.B) {
	for range b.N {
		LaunchMalloc(16) // want `BenchmarkMalloc reaches system memory`
	}
}

func BenchmarkGuarded(b *testing.B) {
	if !xnackOn() {
		b.Skip("XNACK is off")
	}
	for range b.N {
		LaunchMalloc(16)
	}
}

func ExampleNewManaged() {
	NewManaged(16) // want `ExampleNewManaged reaches managed memory`
	// Output:
}

func FuzzLaunch(f *testing.F) {
	f.Fuzz(func(t *testing.T, n int) { // want `FuzzLaunch reaches system memory`
		LaunchMmap(n)
	})
}

func FuzzGuarded(f *testing.F) {
	xnackguard.SkipUnlessXNACK(f)
	f.Fuzz(func(t *testing.T, n int) {
		LaunchMmap(n)
	})
}

// Not tests: helpers with test-like names are not entry points.
func Testhelper(t *testing.T) {
	NewManaged(16)
}
