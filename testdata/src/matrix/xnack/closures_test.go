package xnack

import (
	"sync"
	"testing"
	"unsafe"
)

//matrix:hazard closure-in-place
func TestInPlaceHost(t *testing.T) { func() { Launch(HostBuf(64)) }() } // want `TestInPlaceHost reaches system memory`

//matrix:twin closure-in-place
func TestInPlaceDevice(t *testing.T) { func() { Launch(DeviceBuf(64)) }() }

//matrix:hazard closure-stored
func TestStoredHost(t *testing.T) {
	run := func() { Launch(HostBuf(64)) } // want `TestStoredHost reaches system memory`
	run()
}

//matrix:twin closure-stored
func TestStoredDevice(t *testing.T) {
	run := func() { Launch(DeviceBuf(64)) }
	run()
}

//matrix:hazard closure-deferred
func TestDeferredHost(t *testing.T) {
	p := HostBuf(64)
	defer func() { Launch(p) }() // want `TestDeferredHost reaches system memory`
}

//matrix:twin closure-deferred
func TestDeferredDevice(t *testing.T) {
	p := DeviceBuf(64)
	defer func() { Launch(p) }()
}

//matrix:hazard closure-go
func TestGoHost(t *testing.T) {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); Launch(HostBuf(64)) }() // want `TestGoHost reaches system memory`
	wg.Wait()
}

//matrix:twin closure-go
func TestGoDevice(t *testing.T) {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); Launch(DeviceBuf(64)) }()
	wg.Wait()
}

func withBuffer(p unsafe.Pointer, f func(unsafe.Pointer) error) error { return f(p) }

//matrix:hazard closure-helper
func TestHelperHost(t *testing.T) {
	withBuffer(HostBuf(64), func(p unsafe.Pointer) error { return Launch(p) }) // want `TestHelperHost reaches system memory`
}

//matrix:twin closure-helper
func TestHelperDevice(t *testing.T) {
	withBuffer(DeviceBuf(64), func(p unsafe.Pointer) error { return Launch(p) })
}

//matrix:hazard closure-cleanup
func TestCleanupHost(t *testing.T) {
	p := HostBuf(64)
	t.Cleanup(func() { Launch(p) }) // want `TestCleanupHost reaches system memory`
}

//matrix:twin closure-cleanup
func TestCleanupDevice(t *testing.T) {
	p := DeviceBuf(64)
	t.Cleanup(func() { Launch(p) })
}
