package copysync

import "testing"

func fixture(t *testing.T) (dst, src *Tensor) {
	dst, err := NewTensor(256)
	if err != nil {
		t.Skip(err)
	}
	src, _ = NewTensor(256)
	t.Cleanup(func() { dst.Release(); src.Release() })
	return dst, src
}

//matrix:gap closure-cleanup: t.Cleanup closures run after the test function returns: not modelled
func TestCleanupHazard(t *testing.T) {
	dst, src := fixture(t)
	copyTensor(dst, src)
	t.Cleanup(func() {
		if dst.Values()[0] != 0 {
			t.Error("nonzero head")
		}
	})
}

//matrix:twin closure-cleanup
func TestCleanupTwin(t *testing.T) {
	dst, src := fixture(t)
	copyTensor(dst, src)
	t.Cleanup(func() {
		Synchronize()
		if dst.Values()[0] != 0 {
			t.Error("nonzero head")
		}
	})
}
