package graphfree

import "testing"

func TestPlainFree(t *testing.T) {
	if err := PlainFree(); err != nil {
		t.Log(err) // the hazard: the runtime rejects the pointer
	}
}

func TestGraphFree(t *testing.T) {
	if err := GraphFree(); err != nil {
		t.Fatal(err)
	}
}
