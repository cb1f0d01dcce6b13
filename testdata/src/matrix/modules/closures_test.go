package modules

import "testing"

//matrix:gap closure-cleanup: an explicit unload next to a t.Cleanup unload of the same module is not seen as a second unload
func TestCleanupAndClose(t *testing.T) {
	md, err := Open("k.hsaco")
	if err != nil {
		t.Skip(err)
	}
	t.Cleanup(func() { md.Close() })
	md.Close()
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
