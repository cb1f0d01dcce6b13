package cargs

import "testing"

// TestFillDevice comes first: after an illegal address the context is lost
// for the rest of the process (confirm runs each test in its own).
func TestFillDevice(t *testing.T) {
	if err := FillDevice(); err != nil {
		t.Fatal(err)
	}
}

func TestFillHost(t *testing.T) {
	if err := FillHost(); err != nil {
		t.Fatal(err)
	}
}
