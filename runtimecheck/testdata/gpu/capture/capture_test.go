package capture

import "testing"

//matrix:gpu rt-capture-free graphfree hazard
func TestFreeCaptured(t *testing.T) {
	if err := FreeCaptured(); err != nil {
		t.Fatalf("a captured free of memory the graph did not allocate: %v", err)
	}
}

//matrix:gpu rt-capture-free graphfree twin
func TestFreeGraphAlloc(t *testing.T) {
	if err := FreeGraphAlloc(); err != nil {
		t.Fatal(err)
	}
}
