package graphfree

import "testing"

//matrix:gpu call-direct graphfree hazard
func TestPlainFree(t *testing.T) {
	if err := PlainFree(); err != nil {
		t.Log(err) // the hazard: the runtime rejects the pointer
	}
}

//matrix:gpu call-direct graphfree twin
func TestGraphFree(t *testing.T) {
	if err := GraphFree(); err != nil {
		t.Fatal(err)
	}
}
