package hostring_test

import (
	"fmt"
	"testing"

	"libs/xnack/hostring"
)

// An external test of the same binary: the internal TestMain set
// HSA_XNACK before it runs.
func TestExternalPageable(t *testing.T) {
	r := hostring.NewPageableRing(2, 64)
	if err := r.Drain(); err != nil {
		t.Fatal(err)
	}
}

func TestExternalPinned(t *testing.T) {
	r, err := hostring.NewPinnedRing(2, 64)
	if err != nil {
		t.Fatal(err)
	}
	r.Drain()
}

// Compiled, never run: no output comment.
func ExampleProcessSlice() {
	fmt.Println(hostring.ProcessSlice(make([]float32, 16)))
}

// Safe: the internal TestMain runs first in this binary too.
func TestExternalSlice(t *testing.T) {
	if err := hostring.ProcessSlice(make([]float32, 64)); err != nil {
		t.Fatal(err)
	}
}
