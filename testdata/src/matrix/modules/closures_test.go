package modules

import "testing"

//matrix:hazard closure-cleanup
func TestCleanupAndClose(t *testing.T) {
	md, err := Open("k.hsaco")
	if err != nil {
		t.Skip(err)
	}
	t.Cleanup(func() { md.Close() })
	md.Close() // want `module md is unloaded here and again by a deferred unload`
}

//matrix:twin closure-cleanup
func TestCleanupOnly(t *testing.T) {
	md, err := Open("k.hsaco")
	if err != nil {
		t.Skip(err)
	}
	t.Cleanup(func() { md.Close() })
	if err := validate(md); err != nil {
		t.Fatal(err)
	}
}
