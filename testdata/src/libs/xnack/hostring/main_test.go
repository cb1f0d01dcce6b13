package hostring

import (
	"os"
	"testing"
)

// TestMain turns XNACK on before any HIP call: every test of the binary,
// the external ones too, runs with it.
func TestMain(m *testing.M) { // want TestMain:"guardsTests"
	os.Setenv("HSA_XNACK", "1")
	os.Exit(m.Run())
}

func TestPageableRing(t *testing.T) {
	r := NewPageableRing(2, 1024)
	if err := r.Drain(); err != nil {
		t.Fatal(err)
	}
}

func TestSlice(t *testing.T) {
	if err := ProcessSlice(make([]float32, 256)); err != nil {
		t.Fatal(err)
	}
}

func BenchmarkPageable(b *testing.B) {
	r := NewPageableRing(4, 1<<20)
	for b.Loop() {
		r.Next()
	}
}
