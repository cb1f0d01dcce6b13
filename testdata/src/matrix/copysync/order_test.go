package copysync

import (
	"os"
	"testing"
)

var golden, goldenStaged, reference, referenceStaged *Tensor

func TestMain(m *testing.M) {
	golden, _ = NewTensor(256)
	goldenStaged, _ = NewTensor(256)
	reference, _ = NewTensor(256)
	referenceStaged, _ = NewTensor(256)
	copyTensor(reference, referenceStaged)
	Synchronize()
	copyTensor(golden, goldenStaged) // left in flight when the tests start
	os.Exit(m.Run())
}

//matrix:hazard order-testmain
func TestGoldenHazard(t *testing.T) {
	if golden.Values()[0] != 1 { // want `this index expression reads golden.ptr on the host before the device-to-device copy into it by TestMain \(C.hipMemcpy\) is ordered`
		t.Error("golden head")
	}
}

//matrix:twin order-testmain
func TestGoldenTwin(t *testing.T) {
	if reference.Values()[0] != 1 {
		t.Error("reference head")
	}
}

// TestGoldenSynced waits for the device before it looks at golden.
//
//matrix:twin order-testmain
func TestGoldenSynced(t *testing.T) { // want TestGoldenSynced:`synchronizes\(device\)`
	Synchronize()
	if golden.Values()[0] != 1 {
		t.Error("golden head")
	}
}

//matrix:hazard order-subtest
func TestSubtestHazard(t *testing.T) {
	dst, src := fixture(t)
	copyTensor(dst, src)
	t.Run("head", func(t *testing.T) {
		if dst.Values()[0] != 0 { // want `this index expression reads dst.ptr on the host before the device-to-device copy into it by copyTensor \(C.hipMemcpy\) is ordered`
			t.Error("nonzero head")
		}
	})
}

//matrix:twin order-subtest
func TestSubtestTwin(t *testing.T) { // want TestSubtestTwin:`synchronizes\(device\)`
	dst, src := fixture(t)
	copyTensor(dst, src)
	Synchronize()
	t.Run("head", func(t *testing.T) {
		if dst.Values()[0] != 0 {
			t.Error("nonzero head")
		}
	})
}

var sink float32

//matrix:hazard order-benchmark
func BenchmarkCopyHazard(b *testing.B) {
	dst, _ := NewTensor(1 << 20)
	src, _ := NewTensor(1 << 20)
	for b.Loop() {
		copyTensor(dst, src)
	}
	sink = dst.Values()[0] // want `this index expression reads dst.ptr on the host before the device-to-device copy into it by copyTensor \(C.hipMemcpy\) is ordered`
}

//matrix:twin order-benchmark
func BenchmarkCopyTwin(b *testing.B) { // want BenchmarkCopyTwin:`synchronizes\(device\)`
	dst, _ := NewTensor(1 << 20)
	src, _ := NewTensor(1 << 20)
	for b.Loop() {
		copyTensor(dst, src)
	}
	Synchronize()
	sink = dst.Values()[0]
}
