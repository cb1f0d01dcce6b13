package realshapes

// #include <cuda.h>
import "C"

import "unsafe"

// Module is a loaded CUDA module kept as a uintptr, the way cu-style
// wrappers type their handles.
type Module uintptr

// Function is a kernel of a Module.
type Function uintptr

// LoadData loads a module image.
func LoadData(img unsafe.Pointer) (Module, error) { // want LoadData:"returnsModule\\(result=0, status=1\\)"
	var m C.CUmodule
	res := C.cuModuleLoadData(&m, img)
	if err := check(res); err != nil {
		return 0, err
	}
	return Module(uintptr(unsafe.Pointer(m))), nil
}

// MustLoadData panics when the load fails.
func MustLoadData(img unsafe.Pointer) Module { // want MustLoadData:"returnsModule\\(result=0, status=-1\\)"
	m, err := LoadData(img)
	if err != nil {
		panic(err)
	}
	return m
}

// GetFunction looks a kernel up; it panics when there is none.
func (m Module) GetFunction(name *C.char) Function { // want GetFunction:"borrows\\[-1\\] uses\\[-1\\]"
	var f C.CUfunction
	if err := check(C.cuModuleGetFunction(&f, C.CUmodule(unsafe.Pointer(uintptr(m))), name)); err != nil {
		panic(err)
	}
	return Function(uintptr(unsafe.Pointer(f)))
}

// Unload releases the module.
func (m Module) Unload() error { // want Unload:"unloads\\[-1\\]"
	return check(C.cuModuleUnload(C.CUmodule(unsafe.Pointer(uintptr(m)))))
}

// Hazard: the constructor's result is dropped by an expression statement.
func loadAsStatement(img unsafe.Pointer) {
	LoadData(img) // want `the module LoadData returns is discarded`
}

// Hazard: the module goes to the blank identifier.
func loadIntoBlank(img unsafe.Pointer) error {
	_, err := LoadData(img) // want `the module LoadData returns is discarded`
	return err
}

// Hazard: `_ = mod` keeps nothing; the module is never unloaded.
func blankAfterCheck(img unsafe.Pointer) error {
	mod, err := LoadData(img) // want `module mod loaded by LoadData is not unloaded on this return`
	if err != nil {
		return err
	}
	_ = mod
	return nil
}

// Hazard: the chained call keeps only the function; its module is lost.
func chained(img unsafe.Pointer, name *C.char) Function {
	return MustLoadData(img).GetFunction(name) // want `the module MustLoadData returns is discarded`
}

// Safe twin: kept, used and unloaded.
func keptAndUnloaded(img unsafe.Pointer, name *C.char) error {
	mod, err := LoadData(img)
	if err != nil {
		return err
	}
	defer mod.Unload()
	_ = mod.GetFunction(name)
	return nil
}

// Safe twin: the chain ends in the unload.
func chainedUnload(img unsafe.Pointer) error {
	return MustLoadData(img).Unload()
}

// Safe twin: the newtype is returned to the caller.
func passedOn(img unsafe.Pointer) (Module, error) { // want passedOn:"returnsModule\\(result=0, status=1\\)"
	mod, err := LoadData(img)
	if err != nil {
		return 0, err
	}
	return mod, nil
}
