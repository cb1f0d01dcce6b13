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

//matrix:hazard closure-cleanup
func TestCleanupHazard(t *testing.T) {
	dst, src := fixture(t)
	copyTensor(dst, src)
	t.Cleanup(func() {
		if dst.Values()[0] != 0 { // want `this index expression reads dst.ptr on the host before the device-to-device copy into it by copyTensor \(C.hipMemcpy\) is ordered`
			t.Error("nonzero head")
		}
	})
}

//matrix:twin closure-cleanup
func TestCleanupTwin(t *testing.T) { // want TestCleanupTwin:`synchronizes\(device\)`
	dst, src := fixture(t)
	copyTensor(dst, src)
	t.Cleanup(func() {
		Synchronize()
		if dst.Values()[0] != 0 {
			t.Error("nonzero head")
		}
	})
}

// A helper's Cleanup runs when its test ends (here after the test
// synchronized), not when the helper returns: no finding.
func copiedFixture(t *testing.T) *Tensor { // want copiedFixture:`copiesInto\(hipMemcpy dst=res0\.ptr\)`
	dst, src := fixture(t)
	copyTensor(dst, src)
	t.Cleanup(func() {
		if dst.Values()[0] != 0 {
			t.Error("nonzero head")
		}
	})
	return dst
}

func TestHelperCleanup(t *testing.T) { // want TestHelperCleanup:`synchronizes\(device\)`
	copiedFixture(t)
	Synchronize()
}
