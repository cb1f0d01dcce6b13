package conflict

// #include <hip/hip_runtime_api.h>
// #include <stdlib.h>
import "C"

import (
	"errors"
	"unsafe"
)

func check(r C.hipError_t) error {
	if r != C.hipSuccess {
		return errors.New("hip error")
	}
	return nil
}

// Reloader holds a module in a field of a C type: at tier 3 the field has
// no type, and the struct must still count as holding a module.
type Reloader struct{ m C.hipModule_t }

// Unload unloads r's module.
func (r *Reloader) Unload() error { return check(C.hipModuleUnload(r.m)) }

// Reload unloads and loads again: neither a load nor an unload for callers.
func (r *Reloader) Reload(path string) error {
	if err := r.Unload(); err != nil {
		return err
	}
	return r.Load(path)
}

// Load loads a code object file into r's field.
func (r *Reloader) Load(path string) error {
	cpath := C.CString(path)
	defer C.free(unsafe.Pointer(cpath))
	return check(C.hipModuleLoad(&r.m, cpath))
}

// LoadReloadLeak loads and reloads, and never unloads.
func LoadReloadLeak(path string) error {
	var r Reloader
	if err := r.Load(path); err != nil { // hazard: HL2001
		return err
	}
	return r.Reload(path)
}

// LoadReloadUnload is the safe twin.
func LoadReloadUnload(path string) error {
	var r Reloader
	if err := r.Load(path); err != nil {
		return err
	}
	defer r.Unload()
	return r.Reload(path)
}
