package xnack

import (
	"testing"
	"unsafe"

	"matrix/xnacklib"
)

//matrix:hazard call-direct
func TestDirectHost(t *testing.T) { Launch(HostBuf(64)) } // want `TestDirectHost reaches system memory`

//matrix:twin call-direct
func TestDirectDevice(t *testing.T) { Launch(DeviceBuf(64)) }

//matrix:hazard call-method-value
func TestMethodValueHost(t *testing.T) {
	k := &Kernel{}
	run := k.Run
	run(HostBuf(64)) // want `TestMethodValueHost reaches system memory`
}

//matrix:twin call-method-value
func TestMethodValueDevice(t *testing.T) {
	k := &Kernel{}
	run := k.Run
	run(DeviceBuf(64))
}

//matrix:hazard call-method-expr
func TestMethodExprHost(t *testing.T) { (*Kernel).Run(&Kernel{}, HostBuf(64)) } // want `TestMethodExprHost reaches system memory`

//matrix:twin call-method-expr
func TestMethodExprDevice(t *testing.T) { (*Kernel).Run(&Kernel{}, DeviceBuf(64)) }

type stage struct {
	Kernel
	id int
}

//matrix:hazard call-promoted-value
func TestPromotedValueHost(t *testing.T) {
	s := &stage{}
	s.Run(HostBuf(64)) // want `TestPromotedValueHost reaches system memory`
}

//matrix:twin call-promoted-value
func TestPromotedValueDevice(t *testing.T) {
	s := &stage{}
	s.Run(DeviceBuf(64))
}

type pstage struct {
	*Kernel
	id int
}

//matrix:hazard call-promoted-pointer
func TestPromotedPointerHost(t *testing.T) {
	s := pstage{Kernel: &Kernel{}}
	s.Run(HostBuf(64)) // want `TestPromotedPointerHost reaches system memory`
}

//matrix:twin call-promoted-pointer
func TestPromotedPointerDevice(t *testing.T) {
	s := pstage{Kernel: &Kernel{}}
	s.Run(DeviceBuf(64))
}

type pipeline struct {
	pstage
	depth int
}

//matrix:hazard call-promoted-two
func TestPromotedTwoHost(t *testing.T) {
	p := pipeline{pstage: pstage{Kernel: &Kernel{}}}
	p.Run(HostBuf(64)) // want `TestPromotedTwoHost reaches system memory`
}

//matrix:twin call-promoted-two
func TestPromotedTwoDevice(t *testing.T) {
	p := pipeline{pstage: pstage{Kernel: &Kernel{}}}
	p.Run(DeviceBuf(64))
}

type runner interface{ Run(unsafe.Pointer) error }

//matrix:hazard call-iface-local
func TestIfaceLocalHost(t *testing.T) {
	var r runner = &Kernel{}
	r.Run(HostBuf(64)) // want `TestIfaceLocalHost reaches system memory`
}

//matrix:twin call-iface-local
func TestIfaceLocalDevice(t *testing.T) {
	var r runner = &Kernel{}
	r.Run(DeviceBuf(64))
}

//matrix:hazard call-iface-cross
func TestIfaceCrossHost(t *testing.T) {
	var r xnacklib.Runner = xnacklib.HostKernel{}
	r.Run(64) // want `TestIfaceCrossHost reaches system memory`
}

//matrix:twin call-iface-cross
func TestIfaceCrossDevice(t *testing.T) {
	var r xnacklib.Runner = xnacklib.DeviceKernel{}
	r.Run(64)
}

type hooks struct {
	launch func(unsafe.Pointer) error
}

//matrix:hazard call-func-field
func TestFuncFieldHost(t *testing.T) {
	h := hooks{launch: Launch}
	h.launch(HostBuf(64)) // want `TestFuncFieldHost reaches system memory`
}

//matrix:twin call-func-field
func TestFuncFieldDevice(t *testing.T) {
	h := hooks{launch: Launch}
	h.launch(DeviceBuf(64))
}

//matrix:hazard call-func-map
func TestFuncMapHost(t *testing.T) {
	ops := map[string]func(unsafe.Pointer) error{"launch": Launch}
	ops["launch"](HostBuf(64)) // want `TestFuncMapHost reaches system memory`
}

//matrix:twin call-func-map
func TestFuncMapDevice(t *testing.T) {
	ops := map[string]func(unsafe.Pointer) error{"launch": Launch}
	ops["launch"](DeviceBuf(64))
}

//matrix:hazard call-options
func TestOptionsHost(t *testing.T) {
	r := NewRunner(WithHostStaging())
	r.Step() // want `TestOptionsHost reaches system memory`
}

//matrix:twin call-options
func TestOptionsDevice(t *testing.T) {
	r := NewRunner(WithDeviceStaging())
	r.Step()
}

func launchAll[T any](bufs []unsafe.Pointer, _ T) {
	for _, b := range bufs {
		Launch(b)
	}
}

//matrix:hazard call-generic-func
func TestGenericFuncHost(t *testing.T) {
	launchAll[int]([]unsafe.Pointer{HostBuf(64)}, 0) // want `TestGenericFuncHost reaches system memory \(C.malloc memory \(an element of \[\]unsafe.Pointer\{…\}\) passed to launchAll`
}

//matrix:twin call-generic-func
func TestGenericFuncDevice(t *testing.T) {
	launchAll[int]([]unsafe.Pointer{DeviceBuf(64)}, 0)
}

// staging pairs a host buffer with the device buffer it is uploaded to.
type staging struct{ host, dev unsafe.Pointer }

func launchStaged[T any](bufs []staging, _ T) {
	for _, b := range bufs {
		Launch(b.dev)
	}
}

//matrix:twin call-generic-func
func TestGenericFuncStaged(t *testing.T) {
	launchStaged[int]([]staging{{host: HostBuf(64), dev: DeviceBuf(64)}}, 0)
}

type typed[T any] struct{ k Kernel }

func (x *typed[T]) Apply(p unsafe.Pointer) error { return x.k.Run(p) }

//matrix:hazard call-generic-method
func TestGenericMethodHost(t *testing.T) {
	x := &typed[float32]{}
	x.Apply(HostBuf(64)) // want `TestGenericMethodHost reaches system memory`
}

//matrix:twin call-generic-method
func TestGenericMethodDevice(t *testing.T) {
	x := &typed[float32]{}
	x.Apply(DeviceBuf(64))
}
