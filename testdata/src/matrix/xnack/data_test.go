package xnack

import (
	"testing"
	"unsafe"
)

//matrix:hazard data-local
func TestLocalHost(t *testing.T) {
	p := HostBuf(64)
	Launch(p) // want `TestLocalHost reaches system memory`
}

//matrix:twin data-local
func TestLocalDevice(t *testing.T) {
	p := DeviceBuf(64)
	Launch(p)
}

type bufs struct{ in, out unsafe.Pointer }

//matrix:hazard data-field-local
func TestFieldLocalHost(t *testing.T) {
	b := bufs{in: HostBuf(64)}
	Launch(b.in) // want `TestFieldLocalHost reaches system memory`
}

//matrix:twin data-field-local
func TestFieldLocalDevice(t *testing.T) {
	b := bufs{in: DeviceBuf(64)}
	Launch(b.in)
}

//matrix:hazard data-field-receiver
func TestFieldReceiverHost(t *testing.T) { NewHostRunner().Step() } // want `TestFieldReceiverHost reaches system memory`

//matrix:twin data-field-receiver
func TestFieldReceiverDevice(t *testing.T) { NewDeviceRunner().Step() }

var hostPkg = bufs{in: HostBuf(64)}
var devicePkg = bufs{in: DeviceBuf(64)}

//matrix:hazard data-field-pkg
func TestFieldPkgHost(t *testing.T) { Launch(hostPkg.in) } // want `TestFieldPkgHost reaches system memory`

//matrix:twin data-field-pkg
func TestFieldPkgDevice(t *testing.T) { Launch(devicePkg.in) }

func hostStaging() unsafe.Pointer   { return hostPkg.in }
func deviceStaging() unsafe.Pointer { return devicePkg.in }

//matrix:hazard data-pkgvar-wrapper
func TestPkgVarWrapperHost(t *testing.T) { Launch(hostStaging()) } // want `TestPkgVarWrapperHost reaches system memory`

//matrix:twin data-pkgvar-wrapper
func TestPkgVarWrapperDevice(t *testing.T) { Launch(deviceStaging()) }

//matrix:hazard data-append-loop
func TestAppendLoopHost(t *testing.T) {
	var ps []unsafe.Pointer
	for range 2 {
		ps = append(ps, HostBuf(64))
	}
	Launch(ps[0]) // want `TestAppendLoopHost reaches system memory`
}

//matrix:twin data-append-loop
func TestAppendLoopDevice(t *testing.T) {
	var ps []unsafe.Pointer
	for range 2 {
		ps = append(ps, DeviceBuf(64))
	}
	Launch(ps[0])
}

//matrix:twin data-append-loop
func TestAppendLoopMixedIndexed(t *testing.T) {
	// Only the device buffer is launched: an element that holds host
	// memory in one store and device memory in another is not known.
	ps := []unsafe.Pointer{DeviceBuf(64)}
	ps = append(ps, HostBuf(64))
	Launch(ps[0])
}

//matrix:hazard data-chan
func TestChanHost(t *testing.T) {
	ch := make(chan unsafe.Pointer, 1)
	ch <- HostBuf(64)
	Launch(<-ch) // want `TestChanHost reaches system memory`
}

//matrix:twin data-chan
func TestChanDevice(t *testing.T) {
	ch := make(chan unsafe.Pointer, 1)
	ch <- DeviceBuf(64)
	Launch(<-ch)
}

//matrix:twin data-chan
func TestChanStagingApart(t *testing.T) {
	staging := make(chan unsafe.Pointer, 1) // host buffers, never launched
	device := make(chan unsafe.Pointer, 1)
	staging <- HostBuf(64)
	device <- DeviceBuf(64)
	Launch(<-device)
	<-staging
}

type pair struct {
	P unsafe.Pointer
	N int
}

func hostPair() pair   { return pair{P: HostBuf(64), N: 64} }
func devicePair() pair { return pair{P: DeviceBuf(64), N: 64} }

//matrix:hazard data-return-struct
func TestReturnStructHost(t *testing.T) { Launch(hostPair().P) } // want `TestReturnStructHost reaches system memory`

//matrix:twin data-return-struct
func TestReturnStructDevice(t *testing.T) { Launch(devicePair().P) }

func hostTuple() (unsafe.Pointer, int)   { return HostBuf(64), 64 }
func deviceTuple() (unsafe.Pointer, int) { return DeviceBuf(64), 64 }

//matrix:hazard data-return-tuple
func TestReturnTupleHost(t *testing.T) {
	p, _ := hostTuple()
	Launch(p) // want `TestReturnTupleHost reaches system memory`
}

//matrix:twin data-return-tuple
func TestReturnTupleDevice(t *testing.T) {
	p, _ := deviceTuple()
	Launch(p)
}
