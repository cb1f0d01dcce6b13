package hipapi

import (
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
)

func TestCopyDirections(t *testing.T) {
	memcpy, _ := Lookup("hipMemcpy")
	dtod, _ := Lookup("hipMemcpyDtoD")
	dtoh, _ := Lookup("hipMemcpyDtoH")
	unified, _ := Lookup("cuMemcpy")
	bit := func(k int) uint8 { return 1 << k }
	type dirs struct{ d2d, d2h bool }
	get := func(f *Func, kinds uint8, known, dstHost, srcHost bool) dirs {
		d2d, d2h := f.CopyDirections(kinds, known, dstHost, srcHost)
		return dirs{d2d, d2h}
	}
	assert.Equal(t, dirs{true, false}, get(memcpy, bit(KindDeviceToDevice), true, false, false))
	assert.Equal(t, dirs{true, false}, get(memcpy, bit(KindDeviceToDevice)|bit(KindHostToDevice), true, false, false), "one of the kinds")
	assert.Equal(t, dirs{false, false}, get(memcpy, bit(KindDeviceToDevice), true, true, false), "host memory on a side blocks")
	assert.Equal(t, dirs{false, false}, get(memcpy, 0, false, false, false), "kind not known")
	assert.Equal(t, dirs{false, true}, get(memcpy, bit(KindDeviceToHost), true, false, false))
	assert.Equal(t, dirs{false, true}, get(memcpy, bit(KindDefault), true, true, false), "the default kind into host memory")
	assert.Equal(t, dirs{true, false}, get(memcpy, bit(KindDefault), true, false, false))
	assert.Equal(t, dirs{true, false}, get(dtod, 0, false, false, false))
	assert.Equal(t, dirs{false, true}, get(dtoh, 0, false, true, false))
	assert.Equal(t, dirs{false, true}, get(unified, 0, false, true, false))
	assert.Equal(t, dirs{true, false}, get(unified, 0, false, false, false))
}
