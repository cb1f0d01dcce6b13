package xnack

import (
	"context"
	"fmt"
	"iter"
	"testing"
	"unsafe"
)

//matrix:hazard defer-loop
func TestDeferLoopHost(t *testing.T) {
	for range 2 {
		defer Launch(HostBuf(64)) // want `TestDeferLoopHost reaches system memory`
	}
}

//matrix:twin defer-loop
func TestDeferLoopDevice(t *testing.T) {
	for range 2 {
		defer Launch(DeviceBuf(64))
	}
}

//matrix:hazard defer-cond
func TestDeferCondHost(t *testing.T) {
	if testing.Short() {
		defer Launch(HostBuf(64)) // want `TestDeferCondHost reaches system memory`
	}
}

//matrix:twin defer-cond
func TestDeferCondDevice(t *testing.T) {
	if testing.Short() {
		defer Launch(DeviceBuf(64))
	}
}

func runNamed(p unsafe.Pointer) (err error) {
	defer func() {
		if err == nil {
			err = Launch(p)
		}
	}()
	return nil
}

//matrix:hazard defer-named-result
func TestNamedHost(t *testing.T) { runNamed(HostBuf(64)) } // want `TestNamedHost reaches system memory`

//matrix:twin defer-named-result
func TestNamedDevice(t *testing.T) { runNamed(DeviceBuf(64)) }

func runRecover(p unsafe.Pointer) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%v", r)
		}
	}()
	return Launch(p)
}

//matrix:hazard defer-recover
func TestRecoverHost(t *testing.T) { runRecover(HostBuf(64)) } // want `TestRecoverHost reaches system memory`

//matrix:twin defer-recover
func TestRecoverDevice(t *testing.T) { runRecover(DeviceBuf(64)) }

//matrix:hazard early-return
func TestEarlyReturnHost(t *testing.T) {
	if testing.Short() {
		return
	}
	Launch(HostBuf(64)) // want `TestEarlyReturnHost reaches system memory`
}

//matrix:twin early-return
func TestEarlyReturnGuarded(t *testing.T) {
	if !XNACKEnabled() {
		return
	}
	Launch(HostBuf(64))
}

//matrix:hazard goto
func TestGotoHost(t *testing.T) {
	tries := 0
again:
	if err := Launch(HostBuf(64)); err != nil && tries < 2 { // want `TestGotoHost reaches system memory`
		tries++
		goto again
	}
}

//matrix:twin goto
func TestGotoGuarded(t *testing.T) {
	if !XNACKEnabled() {
		goto skip
	}
	Launch(HostBuf(64))
	return
skip:
	t.Skip("XNACK is off")
}

//matrix:hazard labelled-break
func TestLabelledHost(t *testing.T) {
outer:
	for range 2 {
		for range 2 {
			if err := Launch(HostBuf(64)); err != nil { // want `TestLabelledHost reaches system memory`
				break outer
			}
		}
	}
}

//matrix:twin labelled-break
func TestLabelledGuarded(t *testing.T) {
outer:
	for range 2 {
		for range 2 {
			if !XNACKEnabled() {
				break outer
			}
			Launch(HostBuf(64))
		}
	}
}

//matrix:hazard switch-fallthrough
func TestFallthroughHost(t *testing.T) {
	switch {
	case testing.Short():
		fallthrough
	default:
		Launch(HostBuf(64)) // want `TestFallthroughHost reaches system memory`
	}
}

//matrix:twin switch-fallthrough
func TestFallthroughGuarded(t *testing.T) {
	switch {
	case !XNACKEnabled():
		t.Skip("XNACK is off")
		fallthrough
	default:
		Launch(HostBuf(64))
	}
}

//matrix:hazard type-switch
func TestTypeSwitchHost(t *testing.T) {
	var buf any = HostBuf(64)
	switch p := buf.(type) {
	case unsafe.Pointer:
		Launch(p) // want `TestTypeSwitchHost reaches system memory`
	}
}

//matrix:twin type-switch
func TestTypeSwitchDevice(t *testing.T) {
	var buf any = DeviceBuf(64)
	switch p := buf.(type) {
	case unsafe.Pointer:
		Launch(p)
	}
}

//matrix:hazard select-branch
func TestSelectHost(t *testing.T) {
	ctx := context.Background()
	select {
	case <-ctx.Done():
	default:
		Launch(HostBuf(64)) // want `TestSelectHost reaches system memory`
	}
}

//matrix:twin select-branch
func TestSelectDevice(t *testing.T) {
	ctx := context.Background()
	select {
	case <-ctx.Done():
	default:
		Launch(DeviceBuf(64))
	}
}

//matrix:hazard panic-path
func TestPanicHost(t *testing.T) {
	defer func() { recover() }()
	Launch(HostBuf(64)) // want `TestPanicHost reaches system memory`
	panic("done")
}

//matrix:twin panic-path
func TestPanicGuarded(t *testing.T) {
	if !XNACKEnabled() {
		panic("XNACK is off")
	}
	Launch(HostBuf(64))
}

//matrix:hazard range-slice
func TestRangeSliceHost(t *testing.T) {
	for _, p := range []unsafe.Pointer{HostBuf(64)} {
		Launch(p) // want `TestRangeSliceHost reaches system memory`
	}
}

//matrix:twin range-slice
func TestRangeSliceDevice(t *testing.T) {
	for _, p := range []unsafe.Pointer{DeviceBuf(64)} {
		Launch(p)
	}
}

//matrix:twin range-slice
func TestRangeSliceHostApart(t *testing.T) {
	host := []unsafe.Pointer{HostBuf(64)} // staging, never launched
	dev := []unsafe.Pointer{DeviceBuf(64)}
	for i, p := range dev {
		Launch(p)
		_ = host[i]
	}
}

//matrix:hazard range-map
func TestRangeMapHost(t *testing.T) {
	for _, p := range map[string]unsafe.Pointer{"a": HostBuf(64)} {
		Launch(p) // want `TestRangeMapHost reaches system memory`
	}
}

//matrix:twin range-map
func TestRangeMapDevice(t *testing.T) {
	for _, p := range map[string]unsafe.Pointer{"a": DeviceBuf(64)} {
		Launch(p)
	}
}

//matrix:hazard range-chan
func TestRangeChanHost(t *testing.T) {
	ch := make(chan unsafe.Pointer, 1)
	ch <- HostBuf(64)
	close(ch)
	for p := range ch {
		Launch(p) // want `TestRangeChanHost reaches system memory`
	}
}

//matrix:twin range-chan
func TestRangeChanDevice(t *testing.T) {
	ch := make(chan unsafe.Pointer, 1)
	ch <- DeviceBuf(64)
	close(ch)
	for p := range ch {
		Launch(p)
	}
}

//matrix:hazard range-int
func TestRangeIntHost(t *testing.T) {
	for range 3 {
		Launch(HostBuf(64)) // want `TestRangeIntHost reaches system memory`
	}
}

//matrix:twin range-int
func TestRangeIntDevice(t *testing.T) {
	for range 3 {
		Launch(DeviceBuf(64))
	}
}

func hostBufs(k int) iter.Seq[unsafe.Pointer] {
	return func(yield func(unsafe.Pointer) bool) {
		for range k {
			if !yield(HostBuf(64)) {
				return
			}
		}
	}
}

func deviceBufs(k int) iter.Seq[unsafe.Pointer] {
	return func(yield func(unsafe.Pointer) bool) {
		for range k {
			if !yield(DeviceBuf(64)) {
				return
			}
		}
	}
}

//matrix:hazard range-func
func TestRangeFuncHost(t *testing.T) {
	for p := range hostBufs(2) {
		Launch(p) // want `TestRangeFuncHost reaches system memory`
	}
}

//matrix:twin range-func
func TestRangeFuncDevice(t *testing.T) {
	for p := range deviceBufs(2) {
		Launch(p)
	}
}

//matrix:hazard two-loops
func TestTwoLoopsHost(t *testing.T) {
	bufs := []unsafe.Pointer{HostBuf(64)}
	for range bufs {
		if !XNACKEnabled() {
			continue
		}
	}
	for _, p := range bufs {
		Launch(p) // want `TestTwoLoopsHost reaches system memory`
	}
}

//matrix:twin two-loops
func TestTwoLoopsGuarded(t *testing.T) {
	bufs := []unsafe.Pointer{HostBuf(64)}
	for range bufs {
		if !XNACKEnabled() {
			t.Skip("XNACK is off")
		}
	}
	for _, p := range bufs {
		Launch(p)
	}
}
