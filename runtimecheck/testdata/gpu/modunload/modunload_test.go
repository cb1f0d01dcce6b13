package modunload

import "testing"

//matrix:gpu closure-deferred modules hazard
func TestLaunchLookedUp(t *testing.T) {
	if err := LaunchLookedUp(); err != nil {
		t.Fatalf("launch after the deferred closure unloaded the module: %v", err)
	}
}

//matrix:gpu closure-deferred modules twin
func TestLaunchBorrowed(t *testing.T) {
	if err := LaunchBorrowed(); err != nil {
		t.Fatal(err)
	}
}

//matrix:gpu data-field-receiver modules hazard
func TestLaunchEvicted(t *testing.T) {
	if err := LaunchEvicted(); err != nil {
		t.Fatalf("launch after the cache evicted the module: %v", err)
	}
}

//matrix:gpu data-field-receiver modules twin
func TestLaunchBeforeEvict(t *testing.T) {
	if err := LaunchBeforeEvict(); err != nil {
		t.Fatal(err)
	}
}
