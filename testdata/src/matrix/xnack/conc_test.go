package xnack

import (
	"sync"
	"testing"
)

//matrix:hazard conc-waitgroup
func TestWaitGroupHost(t *testing.T) {
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() { // want `TestWaitGroupHost reaches system memory`
			defer wg.Done()
			Launch(HostBuf(64))
		}()
	}
	wg.Wait()
}

//matrix:twin conc-waitgroup
func TestWaitGroupDevice(t *testing.T) {
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			Launch(DeviceBuf(64))
		}()
	}
	wg.Wait()
}

//matrix:hazard conc-chan-join
func TestChanJoinHost(t *testing.T) {
	done := make(chan error)
	go func() { done <- Launch(HostBuf(64)) }() // want `TestChanJoinHost reaches system memory`
	<-done
}

//matrix:twin conc-chan-join
func TestChanJoinDevice(t *testing.T) {
	done := make(chan error)
	go func() { done <- Launch(DeviceBuf(64)) }()
	<-done
}

type group struct{ wg sync.WaitGroup }

func (g *group) Go(f func() error) {
	g.wg.Add(1)
	go func() { defer g.wg.Done(); f() }()
}

func (g *group) Wait() { g.wg.Wait() }

//matrix:hazard conc-errgroup
func TestGroupHost(t *testing.T) {
	var g group
	g.Go(func() error { return Launch(HostBuf(64)) }) // want `TestGroupHost reaches system memory`
	g.Wait()
}

//matrix:twin conc-errgroup
func TestGroupDevice(t *testing.T) {
	var g group
	g.Go(func() error { return Launch(DeviceBuf(64)) })
	g.Wait()
}

//matrix:hazard conc-pkg-handles
func TestPkgHandlesHost(t *testing.T) { Launch(hostPkg.in) } // want `TestPkgHandlesHost reaches system memory`

//matrix:twin conc-pkg-handles
func TestPkgHandlesGuarded(t *testing.T) {
	if !XNACKEnabled() {
		t.Skip("XNACK is off")
	}
	Launch(hostPkg.in)
}
