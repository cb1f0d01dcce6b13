package paramlaunch

import (
	"testing"
	"unsafe"

	"xnack/paramlaunchlib"
)

func TestFillSystem(t *testing.T) {
	FillSystem() // want `TestFillSystem reaches system memory \(C.malloc memory \(p\) passed to fill, which hands it to hipModuleLaunchKernel in FillSystem\) with no XNACK skip guard`
}

func TestFillSystemSkip(t *testing.T) {
	if !pageable() {
		t.Skip("no pageable memory access")
	}
	FillSystem()
}

func TestFillGoDirect(t *testing.T) {
	data := make([]float32, 4)
	fill(unsafe.Pointer(&data[0])) // want `TestFillGoDirect reaches system memory \(Go memory \(unsafe.Pointer\(&data\[0\]\)\) passed to fill, which hands it to hipModuleLaunchKernel\) with no XNACK skip guard`
}

func TestOuter(t *testing.T) {
	FillOuterSystem() // want `TestOuter reaches system memory \(C.malloc memory passed to fillOuter, which hands it on to fill, which hands it to hipModuleLaunchKernel in FillOuterSystem\) with no XNACK skip guard`
}

func TestSliceAndAddr(t *testing.T) {
	FillSliceGo() // want `TestSliceAndAddr reaches system memory \(Go memory \(make\(\[\]float32, 4\)\) passed to fillSlice, which hands it to hipModuleLaunchKernel in FillSliceGo\)`
	FillAddrSystem()
}

func TestHostBuf(t *testing.T) {
	LaunchHostBuf() // want `TestHostBuf reaches system memory \(C.malloc memory \(b.ptr\) passed to launch, which hands it to hipModuleLaunchKernel in LaunchHostBuf\)`
}

func TestLib(t *testing.T) {
	data := make([]byte, 16)
	paramlaunchlib.FillVia(2, unsafe.Pointer(&data[0])) // want `TestLib reaches system memory \(Go memory \(unsafe.Pointer\(&data\[0\]\)\) passed to FillVia, which hands it on to Fill, which hands it to hipModuleLaunchKernel\)`
}

func TestLibBuffer(t *testing.T) {
	LibBuffer() // want `TestLibBuffer reaches system memory \(C.malloc memory \(b.Ptr\) passed to Launch, which hands it to hipModuleLaunchKernel in LibBuffer\)`
}

func TestLibSkip(t *testing.T) {
	if !paramlaunchlib.Pageable() {
		t.Skip("no pageable memory access")
	}
	data := make([]byte, 16)
	paramlaunchlib.Fill(unsafe.Pointer(&data[0]))
	LibSystem()
	LibVia()
}

func TestThrough(t *testing.T) {
	LaunchThrough(nopLauncher{}) // want `TestThrough reaches system memory \(C.malloc memory passed to Launch, which hands it on to fill, which hands it to hipModuleLaunchKernel in LaunchThrough\)`
}

func TestSilent(t *testing.T) {
	FillDevice()
	FillPinned()
	LaunchDevBuf()
	FillGuardedSystem()
	FillCallerGuarded()
	LibGuarded()
	LibDevice()
	CopySystem()
	StoreSystem()
	LaunchThroughDevice(hipLauncher{})
	data := make([]byte, 16)
	CopyIn(unsafe.Pointer(&data[0]), 16)
	FillGuarded(unsafe.Pointer(&data[0]))
	Store(unsafe.Pointer(&data[0]))
}

func TestFillFloats(t *testing.T) {
	FillFloats() // want `TestFillFloats reaches system memory \(C.malloc memory \(\(\*C.float\)\(buf\)\) passed to fillFloats, which hands it on to fill, which hands it to hipModuleLaunchKernel in FillFloats\)`
}
