package modules

import "testing"

//matrix:gpu call-direct modules hazard
func TestLoadAll(t *testing.T) {
	if err := LoadAll(50); err != nil {
		t.Fatal(err)
	}
}

//matrix:gpu call-direct modules twin
func TestLoadEach(t *testing.T) {
	if err := LoadEach(50); err != nil {
		t.Fatal(err)
	}
}

func TestLoadTwice(t *testing.T) {
	if err := LoadTwice("missing"); err == nil {
		t.Fatal("want an error for a missing kernel")
	}
}
