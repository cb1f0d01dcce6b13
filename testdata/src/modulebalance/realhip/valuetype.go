package realhip

// #include <hip/hip_runtime_api.h>
import "C"

// Mod is a struct handle returned by value.
type Mod struct{ m C.hipModule_t }

// LoadMod loads a module; it panics when the load fails.
func LoadMod(path *C.char) Mod { // want LoadMod:"returnsModule\\(result=0, status=-1\\)"
	var m C.hipModule_t
	if err := check(C.hipModuleLoad(&m, path)); err != nil {
		panic(err)
	}
	return Mod{m: m}
}

// Kernel looks a kernel up.
func (m Mod) Kernel(name *C.char) C.hipFunction_t { // want Kernel:"borrows\\[-1\\]"
	var f C.hipFunction_t
	C.hipModuleGetFunction(&f, m.m, name)
	return f
}

// Free unloads the module.
func (m Mod) Free() { // want Free:"unloads\\[-1\\]"
	C.hipModuleUnload(m.m)
}

// Hazard: chained lookup, the module is lost.
func kernelOnly(path, name *C.char) C.hipFunction_t {
	return LoadMod(path).Kernel(name) // want `the module LoadMod returns is discarded`
}

// Hazard: `_ =` of the constructor's result.
func loadModDiscarded(path *C.char) {
	_ = LoadMod(path) // want `the module LoadMod returns is discarded`
}

// Safe twin: kept, used, freed.
func kernelAndFree(path, name *C.char) {
	m := LoadMod(path)
	defer m.Free()
	_ = m.Kernel(name)
}
