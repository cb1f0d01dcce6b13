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

//matrix:gap data-field-receiver: memory a constructor stores in a field is not traced when other constructors store other memory there
func TestFieldReceiverHost(t *testing.T) { NewHostRunner().Step() }

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

//matrix:gap data-append-loop: memory appended to a slice in a loop is not traced to its elements
func TestAppendLoopHost(t *testing.T) {
	var ps []unsafe.Pointer
	for range 2 {
		ps = append(ps, HostBuf(64))
	}
	Launch(ps[0])
}

//matrix:twin data-append-loop
func TestAppendLoopDevice(t *testing.T) {
	var ps []unsafe.Pointer
	for range 2 {
		ps = append(ps, DeviceBuf(64))
	}
	Launch(ps[0])
}

//matrix:gap data-chan: memory sent on a channel is not traced to what is received
func TestChanHost(t *testing.T) {
	ch := make(chan unsafe.Pointer, 1)
	ch <- HostBuf(64)
	Launch(<-ch)
}

//matrix:twin data-chan
func TestChanDevice(t *testing.T) {
	ch := make(chan unsafe.Pointer, 1)
	ch <- DeviceBuf(64)
	Launch(<-ch)
}

type pair struct {
	P unsafe.Pointer
	N int
}

func hostPair() pair   { return pair{P: HostBuf(64), N: 64} }
func devicePair() pair { return pair{P: DeviceBuf(64), N: 64} }

//matrix:gap data-return-struct: memory in a field of a returned struct literal is not traced
func TestReturnStructHost(t *testing.T) { Launch(hostPair().P) }

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
