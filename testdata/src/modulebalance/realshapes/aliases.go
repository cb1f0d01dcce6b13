package realshapes

// #include <cuda.h>
import "C"

import (
	"testing"
	"unsafe"
)

// Image is a uintptr module handle whose functions convert it into a local
// first, the way cu-style bindings do.
type Image uintptr

func LoadImage(img unsafe.Pointer) (Image, error) { // want LoadImage:"returnsModule\\(result=0, status=1\\)"
	var mod C.CUmodule
	if err := check(C.cuModuleLoadData(&mod, img)); err != nil {
		return 0, err
	}
	return Image(uintptr(unsafe.Pointer(mod))), nil
}

func UnloadImage(m Image) error { // want UnloadImage:"unloads\\[0\\]"
	mod := C.CUmodule(unsafe.Pointer(uintptr(m)))
	return check(C.cuModuleUnload(mod))
}

func (m Image) Function(name *C.char) (C.CUfunction, error) { // want Function:"borrows\\[-1\\]"
	var fn C.CUfunction
	mod := C.CUmodule(unsafe.Pointer(uintptr(m)))
	if err := check(C.cuModuleGetFunction(&fn, mod, name)); err != nil {
		return nil, err
	}
	return fn, nil
}

// Hazard: a test in the style of the bindings' own tests.
func imageTest(t *testing.T, img unsafe.Pointer, name *C.char) {
	mod, err := LoadImage(img) // want `module mod loaded by LoadImage is not unloaded when t.Fatal ends the test`
	if err != nil {
		t.Fatal(err)
	}
	if _, err := mod.Function(name); err != nil {
		t.Fatal(err)
	}
	UnloadImage(mod)
}

// Safe twin: the unload deferred.
func imageTestDeferred(t *testing.T, img unsafe.Pointer, name *C.char) {
	mod, err := LoadImage(img)
	if err != nil {
		t.Fatal(err)
	}
	defer UnloadImage(mod)
	if _, err := mod.Function(name); err != nil {
		t.Fatal(err)
	}
}
