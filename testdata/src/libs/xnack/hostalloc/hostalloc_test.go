package hostalloc

import (
	"testing"

	"libs/xnack/hostring"
)

func TestPinnedRing(t *testing.T) {
	r, err := hostring.FromAllocator(Pinned{}, 2, 64)
	if err != nil {
		t.Fatal(err)
	}
	r.Drain()
	r2, err := hostring.NewPinnedRing(2, 64)
	if err != nil {
		t.Fatal(err)
	}
	r2.Drain()
}

// Hazard: this binary has no TestMain and the test no skip.
func TestSliceInPlace(t *testing.T) {
	x := make([]float32, 64)
	hostring.ProcessSlice(x) // want `TestSliceInPlace reaches system memory`
}

func TestSliceStaged(t *testing.T) {
	hostring.ProcessPinnedCopy(make([]float32, 64))
}
