package modset

import "testing"

// Two good images, then one that does not load.
var images = []string{PTX, PTX, "not a module"}

//matrix:gpu data-append-loop modules hazard
func TestLoadPool(t *testing.T) {
	if _, err := LoadPool(images); err == nil {
		t.Fatal("the third image loaded")
	}
}

//matrix:gpu data-append-loop modules twin
func TestLoadRegistry(t *testing.T) {
	if _, err := LoadRegistry(images); err == nil {
		t.Fatal("the third image loaded")
	}
}
