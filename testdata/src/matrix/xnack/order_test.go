package xnack

import (
	"fmt"
	"os"
	"testing"
)

//matrix:hazard order-testmain
func TestMain(m *testing.M) {
	Launch(HostBuf(64)) // want `TestMain reaches C.malloc memory`
	os.Exit(m.Run())
}

//matrix:twin order-testmain
func mainGuarded(m *testing.M) int {
	if !XNACKEnabled() {
		fmt.Println("skipping: XNACK is off")
		return 0
	}
	Launch(HostBuf(64))
	return m.Run()
}

//matrix:hazard order-subtest
func TestSubtestHost(t *testing.T) {
	t.Run("launch", func(t *testing.T) { Launch(HostBuf(64)) }) // want `TestSubtestHost reaches system memory`
}

//matrix:twin order-subtest
func TestSubtestGuarded(t *testing.T) {
	if !XNACKEnabled() {
		t.Skip("XNACK is off")
	}
	t.Run("launch", func(t *testing.T) { Launch(HostBuf(64)) })
}

//matrix:hazard order-example
func ExampleLaunch() {
	fmt.Println(Launch(HostBuf(64))) // want `ExampleLaunch reaches system memory`
	// Output: <nil>
}

//matrix:twin order-example
func ExampleLaunch_host() {
	// No output comment: compiled, never run.
	fmt.Println(Launch(HostBuf(64)))
}

//matrix:hazard order-benchmark
func BenchmarkLaunchHost(b *testing.B) {
	p := HostBuf(64)
	for b.Loop() {
		Launch(p) // want `BenchmarkLaunchHost reaches system memory`
	}
}

//matrix:twin order-benchmark
func BenchmarkLaunchDevice(b *testing.B) {
	p := DeviceBuf(64)
	for b.Loop() {
		Launch(p)
	}
}
