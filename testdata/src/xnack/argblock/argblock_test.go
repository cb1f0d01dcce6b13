package argblock

import (
	"testing"
	"unsafe"

	"xnack/argblocklib"
)

func TestHost(t *testing.T) {
	hostRun() // want `TestHost reaches system memory \(C.malloc memory \(buf\) passed to packArgs, whose argument array is passed to hipModuleLaunchKernel in hostRun\)`
}

func TestDevice(t *testing.T) {
	deviceRun()
	goRunDevice()
	sliceRunDevice()
	addrRun()
	inlineDevice()
	libDevice()
	launchVia(devAlloc(16))
}

func TestGo(t *testing.T) {
	goRun() // want `TestGo reaches system memory \(Go memory \(unsafe.Pointer\(&xs\[0\]\)\) passed to rewrap, whose argument array`
}

func TestSlice(t *testing.T) {
	sliceRun() // want `TestSlice reaches system memory \(C.malloc memory passed to goArgs, whose argument array`
}

func TestVia(t *testing.T) {
	xs := make([]byte, 16)
	launchVia(unsafe.Pointer(&xs[0])) // want `TestVia reaches system memory \(Go memory \(unsafe.Pointer\(&xs\[0\]\)\) passed to launchVia, which hands it to hipModuleLaunchKernel\)`
}

func TestInline(t *testing.T) {
	inlineHost() // want `TestInline reaches system memory \(C.malloc memory \(buf\) passed to hipModuleLaunchKernel in inlineHost\)`
}

func TestLib(t *testing.T) {
	libHostDirect() // want `TestLib reaches system memory \(C.malloc memory \(buf\) passed to Pack, whose argument array`
}

func TestLibLaunch(t *testing.T) {
	_, kp := argblocklib.Pack(unsafe.Pointer(&make([]byte, 128)[0]), 32)
	argblocklib.Launch(kp) // want `TestLibLaunch reaches system memory \(Go memory \(unsafe.Pointer\(&make\(\[\]byte, 128\)\[0\]\)\) passed to Pack, whose argument array is passed to Launch, which hands it to hipModuleLaunchKernel\)`
}

func TestLibHost(t *testing.T) {
	libHost() // want `TestLibHost reaches system memory \(C.malloc memory \(buf\) passed to Pack, whose argument array is passed to Launch, which hands it to hipModuleLaunchKernel in libHost\)`
}

func TestGoSliceLib(t *testing.T) {
	goSliceLib() // want `TestGoSliceLib reaches system memory \(C.malloc memory \(buf\) in the argument array passed to Launch, which hands it to hipModuleLaunchKernel in goSliceLib\)`
}

func TestRelaunch(t *testing.T) {
	_, kp := packArgs(hostAlloc(64), 16)
	relaunch(kp) // want `TestRelaunch reaches system memory \(C.malloc memory \(hostAlloc\(64\)\) passed to packArgs, whose argument array is passed to relaunch, which hands it on to Launch, which hands it to hipModuleLaunchKernel\)`
}

func TestLaunchWith(t *testing.T) {
	xs := make([]int32, 4)
	launchWith(unsafe.Pointer(&xs[0])) // want `TestLaunchWith reaches system memory \(Go memory \(unsafe.Pointer\(&xs\[0\]\)\) passed to launchWith, which hands it on to Launch, which hands it to hipModuleLaunchKernel\)`
}

func TestLibDevice(t *testing.T) {
	goSliceLibDevice()
	_, kp := packArgs(devAlloc(64), 16)
	relaunch(kp)
	launchWith(devAlloc(16))
	argblocklib.Launch(opaque(hostAlloc(64)))
	relaunch(addrOnly(unsafe.Pointer(&kp)))
}

func TestVariadic(t *testing.T) {
	variadicHost() // want `TestVariadic reaches system memory \(C.malloc memory \(buf\) in the argument array passed to LaunchArgs, which hands it to hipModuleLaunchKernel in variadicHost\)`
}

func TestVariadicSpread(t *testing.T) {
	variadicSpread() // want `TestVariadicSpread reaches system memory \(C.malloc memory \(buf\) in the argument array passed to LaunchArgs, which hands it to hipModuleLaunchKernel in variadicSpread\)`
}

func TestVariadicList(t *testing.T) {
	xs := make([]float32, 8)
	p := unsafe.Pointer(&xs[0])
	launchList(unsafe.Pointer(&p)) // want `TestVariadicList reaches system memory \(Go memory \(p\) in the argument array passed to launchList, which hands it on to LaunchArgs, which hands it to hipModuleLaunchKernel\)`
}

func TestVariadicDevice(t *testing.T) {
	variadicDevice()
}
