// Package kindenum is a backend layer in the style of libraries that run on
// several GPU runtimes: its own copy-kind enum, a Runtime interface, and a
// HIP implementation that translates the enum into the runtime's kinds with
// a helper. What its callers pass decides whether a copy is device to
// device: an upload from host memory returns with the data in place, a
// device-to-device copy does not.
package kindenum

// #cgo CFLAGS: -I${SRCDIR}/../../../include
// #include <hip/hip_runtime_api.h>
import "C"

import (
	"fmt"
	"unsafe"
)

// MemcpyKind is the library's own copy direction; its values are not the
// runtime's (HostToDevice is 0, the runtime's host-to-host).
type MemcpyKind int

const (
	HostToDevice MemcpyKind = iota
	DeviceToHost
	DeviceToDevice
)

// Runtime is what the tensors of this library run on.
type Runtime interface {
	Memcpy(dst, src unsafe.Pointer, n int, kind MemcpyKind) error
	Synchronize() error
}

// HIP runs on the HIP runtime.
type HIP struct{}

func check(op string, r C.hipError_t) error {
	if r != C.hipSuccess {
		return fmt.Errorf("%s: hip error %d", op, int(r))
	}
	return nil
}

// hipKind translates a MemcpyKind with a switch.
func hipKind(kind MemcpyKind) C.hipMemcpyKind {
	switch kind {
	case HostToDevice:
		return C.hipMemcpyHostToDevice
	case DeviceToHost:
		return C.hipMemcpyDeviceToHost
	case DeviceToDevice:
		return C.hipMemcpyDeviceToDevice
	default:
		return C.hipMemcpyHostToDevice
	}
}

// Memcpy copies with the runtime kind that kind translates to.
func (HIP) Memcpy(dst, src unsafe.Pointer, n int, kind MemcpyKind) error { // want Memcpy:`copiesInto\(hipMemcpy dst=p0 kind=p3\{0:10,1:100,2:1000,3:10,4:10,5:10,6:10,7:10\}\)`
	return check("hipMemcpy", C.hipMemcpy(dst, src, C.size_t(n), hipKind(kind)))
}

// Synchronize waits for the device.
func (HIP) Synchronize() error { return check("hipDeviceSynchronize", C.hipDeviceSynchronize()) } // want Synchronize:`synchronizes\(device\)`

// legacyKind translates with an if-chain; an unknown kind panics.
func legacyKind(k MemcpyKind) C.hipMemcpyKind {
	if k == DeviceToDevice {
		return C.hipMemcpyDeviceToDevice
	}
	if k == DeviceToHost {
		return C.hipMemcpyDeviceToHost
	}
	if k == HostToDevice {
		return C.hipMemcpyHostToDevice
	}
	panic("legacyKind: unknown kind")
}

// CopyLegacy copies through the if-chain translation.
func CopyLegacy(dst, src unsafe.Pointer, n int, k MemcpyKind) error { // want CopyLegacy:`copiesInto\(hipMemcpy dst=p0 kind=p3\{0:10,1:100,2:1000\}\)`
	return check("hipMemcpy", C.hipMemcpy(dst, src, C.size_t(n), legacyKind(k)))
}

// notAMap picks the kind from a table no reader follows: the kind of a
// copy through it is unknown, and hiplint, which reports copies it knows
// to be device to device, stays silent on them.
func notAMap(k MemcpyKind) C.hipMemcpyKind {
	kinds := []C.hipMemcpyKind{C.hipMemcpyHostToDevice, C.hipMemcpyDeviceToHost, C.hipMemcpyDeviceToDevice}
	return kinds[k]
}

// CopyTable copies through the table.
func CopyTable(dst, src unsafe.Pointer, n int, k MemcpyKind) error { // want CopyTable:`deviceReads\(p1 on null\)`
	return check("hipMemcpy", C.hipMemcpy(dst, src, C.size_t(n), notAMap(k)))
}

// Flag is a second enum, in the style of bindings whose kinds are values
// with methods: c() converts to the runtime's kind as it is, hip()
// translates with a switch on the receiver.
type Flag uint32

// c converts f to the runtime's kind: the values are the runtime's.
func (f Flag) c() C.hipMemcpyKind { return C.hipMemcpyKind(f) }

// Device is the runtime's device-to-device value, Host its host-to-device.
const (
	Host   Flag = 1
	Device Flag = 3
)

// Copy copies with f converted as it is.
func Copy(dst, src unsafe.Pointer, n int, f Flag) error { // want Copy:`copiesInto\(hipMemcpy dst=p0 kind=p3\{0:1,1:10,2:100,3:1000,4:10000,5:100000,6:1000000,7:10000000\}\)`
	return check("hipMemcpy", C.hipMemcpy(dst, src, C.size_t(n), f.c()))
}

// hip translates k with a switch on the receiver.
func (k MemcpyKind) hip() C.hipMemcpyKind {
	switch k {
	case DeviceToDevice:
		return C.hipMemcpyDeviceToDevice
	case DeviceToHost:
		return C.hipMemcpyDeviceToHost
	}
	return C.hipMemcpyHostToDevice
}

// CopyKind copies with k translated by its method.
func CopyKind(dst, src unsafe.Pointer, n int, k MemcpyKind) error { // want CopyKind:`copiesInto\(hipMemcpy dst=p0 kind=p3\{0:10,1:100,2:1000,3:10,4:10,5:10,6:10,7:10\}\)`
	return check("hipMemcpy", C.hipMemcpy(dst, src, C.size_t(n), k.hip()))
}

// CopyKindExpr copies with k translated through the method expression
// MemcpyKind.hip: the receiver is the call's first argument.
func CopyKindExpr(dst, src unsafe.Pointer, n int, k MemcpyKind) error { // want CopyKindExpr:`copiesInto\(hipMemcpy dst=p0 kind=p3\{0:10,1:100,2:1000,3:10,4:10,5:10,6:10,7:10\}\)`
	return check("hipMemcpy", C.hipMemcpy(dst, src, C.size_t(n), MemcpyKind.hip(k)))
}
