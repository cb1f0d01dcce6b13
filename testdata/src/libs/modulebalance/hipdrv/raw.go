package hipdrv

// #include <hip/hip_runtime_api.h>
// #include <stdlib.h>
import "C"

import "unsafe"

// loadRawFile is the binding's lower layer: it loads a file into a raw
// handle; the caller owns the handle on success.
func loadRawFile(path string) (C.hipModule_t, error) { // want loadRawFile:"returnsModule\\(result=0, status=1\\)"
	cpath := C.CString(path)
	defer C.free(unsafe.Pointer(cpath))
	var h C.hipModule_t
	err := result(C.hipModuleLoad(&h, cpath))
	return h, err
}

// Load loads a file into a Module.
func Load(path string) (*Module, error) {
	h, err := loadRawFile(path)
	if err != nil {
		return nil, err
	}
	m := &Module{h: h}
	runtime_SetFinalizer(m)
	return m, nil
}

// LoadKernel loads a file and returns one of its kernels with the module
// that owns it.
func LoadKernel(path, name string) (*Module, *Function, error) {
	m, err := Load(path)
	if err != nil {
		return nil, nil, err
	}
	f, err := m.Function(name)
	if err != nil {
		m.Unload()
		return nil, nil, err
	}
	return m, f, nil
}

// symbolSize loads a file and returns the size of a global. Hazard: the
// error of the global's lookup returns without unloading the raw handle.
func symbolSize(path, global string) (int, error) {
	h, err := loadRawFile(path) // want `module h loaded by loadRawFile is not unloaded on this return`
	if err != nil {
		return 0, err
	}
	cname := C.CString(global)
	defer C.free(unsafe.Pointer(cname))
	var dptr C.hipDeviceptr_t
	var size C.size_t
	if err := result(C.hipModuleGetGlobal(&dptr, &size, h, cname)); err != nil {
		return 0, err
	}
	C.hipModuleUnload(h)
	return int(size), nil
}

// symbolSizeDeferred is its twin: a deferred unload covers every return.
func symbolSizeDeferred(path, global string) (int, error) {
	h, err := loadRawFile(path)
	if err != nil {
		return 0, err
	}
	defer C.hipModuleUnload(h)
	cname := C.CString(global)
	defer C.free(unsafe.Pointer(cname))
	var dptr C.hipDeviceptr_t
	var size C.size_t
	if err := result(C.hipModuleGetGlobal(&dptr, &size, h, cname)); err != nil {
		return 0, err
	}
	return int(size), nil
}
