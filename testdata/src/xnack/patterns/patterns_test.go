package patterns

import "testing"

func TestLaunchMalloc(t *testing.T) {
	LaunchMalloc(16) // want `TestLaunchMalloc reaches system memory \(C.malloc memory \(buf\) passed to hipModuleLaunchKernel in LaunchMalloc\) with no XNACK skip guard`
}

func TestLaunchMallocSkip(t *testing.T) {
	if !PageableAccess() {
		t.Skip("XNACK is off")
	}
	LaunchMalloc(16)
}

func TestManagedResult(t *testing.T) {
	if !ArchXNACK() {
		t.Skip("XNACK is off")
	}
	NewManaged(16)
	PrefetchGuarded(16)
}

func TestManagedUnguarded(t *testing.T) {
	NewManaged(16) // want `TestManagedUnguarded reaches managed memory \(hipMallocManaged in NewManaged\) with no XNACK skip guard`
}

func TestHostBuffer(t *testing.T) {
	b := NewHostBuffer(64)
	defer b.Free()
	b.Launch() // want `TestHostBuffer reaches system memory \(C.malloc memory \(b.ptr\) passed to hipModuleLaunchKernel in Launch\) with no XNACK skip guard`
}

func TestHostBufferSkip(t *testing.T) {
	if !ArchXNACK() {
		t.Skip("XNACK is off")
	}
	b := NewHostBuffer(64)
	defer b.Free()
	b.Launch()
}

func TestDeviceBuffer(t *testing.T) {
	b, err := NewDeviceBuffer(64)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Free()
	b.Launch()
	LaunchDevice(64)
	LaunchDevicePtr(64)
	LaunchCachedDevice("x")
}

func TestHostPtr(t *testing.T) {
	LaunchHostPtr(64) // want `TestHostPtr reaches system memory \(C.malloc memory \(dp\) passed to hipModuleLaunchKernel in LaunchHostPtr\)`
}

func TestCached(t *testing.T) {
	LaunchCached("x") // want `TestCached reaches system memory \(C.malloc memory \(p\) passed to hipModuleLaunchKernel in LaunchCached\)`
}

func TestCachedElement(t *testing.T) {
	LaunchCachedElement("x") // want `TestCachedElement reaches system memory \(C.malloc memory \(p\) passed to hipModuleLaunchKernel in LaunchCachedElement\)`
}

func TestCtxDo(t *testing.T) {
	ctx := &Context{}
	ctx.LaunchHost(64) // want `TestCtxDo reaches system memory \(C.malloc memory \(buf\) passed to hipModuleLaunchKernel in LaunchHost\)`
}

func TestCtxDoSkip(t *testing.T) {
	ctx := &Context{}
	if !ctx.XNACKEnabled() {
		t.Skip("XNACK is off")
	}
	ctx.LaunchHost(64)
	ctx.LaunchHostGuarded(64)
}

func TestRuntime(t *testing.T) {
	UseRuntime(Pick(false), 64) // want `TestRuntime reaches managed memory \(hipMallocManaged in MallocManaged\)`
}

func TestRuntimeGuarded(t *testing.T) {
	UseRuntimeGuarded(Pick(false), 64)
	rt := Pick(true)
	if !rt.XNACKEnabled() {
		t.Skip("no pageable memory access")
	}
	rt.MallocManaged(64)
}
