package realshapes

// #include <cuda.h>
import "C"

import "unsafe"

// Hazard: a kernel looked up through the wrapper after the module's
// unload: GetFunction hands the module to cuModuleGetFunction.
func functionAfterUnload(img unsafe.Pointer, name *C.char) (Function, error) {
	mod, err := LoadData(img)
	if err != nil {
		return 0, err
	}
	if err := mod.Unload(); err != nil {
		return 0, err
	}
	return mod.GetFunction(name), nil // want `GetFunction uses module mod after it was unloaded`
}

// Safe twin: looked up before the unload.
func functionBeforeUnload(img unsafe.Pointer, name *C.char) (Function, error) {
	mod, err := LoadData(img)
	if err != nil {
		return 0, err
	}
	f := mod.GetFunction(name)
	return f, mod.Unload()
}

// ID reads the handle's value only: no runtime call sees the module.
func (m Module) ID() uintptr {
	return uintptr(m)
}

// Safe: the handle's value read after the unload (for a log line) is no
// use of the module.
func idAfterUnload(img unsafe.Pointer) uintptr {
	mod, err := LoadData(img)
	if err != nil {
		return 0
	}
	mod.Unload()
	return mod.ID()
}

// lookup hands its parameter to the wrapper: it uses the module too.
func lookup(m Module, name *C.char) Function { // want lookup:"borrows\\[0\\] uses\\[0\\]"
	return m.GetFunction(name)
}

// Hazard: the same through the wrapper of the wrapper.
func lookupAfterUnload(img unsafe.Pointer, name *C.char) Function {
	mod, err := LoadData(img)
	if err != nil {
		return 0
	}
	mod.Unload()
	return lookup(mod, name) // want `lookup uses module mod after it was unloaded`
}
