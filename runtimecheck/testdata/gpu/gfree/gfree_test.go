package gfree

import "testing"

func TestFreeManaged(t *testing.T) {
	if err := FreeManaged(); err != nil {
		t.Log(err) // the hazard: the runtime rejects the pointer
	}
}

func TestFreeAllocated(t *testing.T) {
	if err := FreeAllocated(); err != nil {
		t.Fatal(err)
	}
}
