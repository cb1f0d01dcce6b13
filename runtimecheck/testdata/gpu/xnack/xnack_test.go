package xnack

import "testing"

// TestSystemNoSkip runs the kernel on system memory on any device.
func TestSystemNoSkip(t *testing.T) {
	if err := FillSystem(); err != nil {
		t.Fatal(err)
	}
}

// TestSystemSkip runs it only where the device can page system memory in.
func TestSystemSkip(t *testing.T) {
	if !Pageable() {
		t.Skip("device 0 cannot access pageable memory (XNACK off, or no HMM)")
	}
	if err := FillSystem(); err != nil {
		t.Fatal(err)
	}
}

// TestManaged runs the kernel on managed memory on any device.
func TestManaged(t *testing.T) {
	if err := FillManaged(); err != nil {
		t.Fatal(err)
	}
}
