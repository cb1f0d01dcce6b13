package realhip

// #include <hip/hip_runtime_api.h>
// #include <stdlib.h>
import "C"

import "unsafe"

// Reloader declares its Reload before its Load: a summary round sees Reload
// unload before it knows that Reload loads again, and the next round must
// take that unload back (it once stayed, and callers got a false HL2002).
type Reloader struct {
	m C.hipModule_t
}

// Unload releases the module.
func (r *Reloader) Unload() error { // want Unload:"unloads\\[-1\\]"
	return check(C.hipModuleUnload(r.m))
}

// Reload unloads and loads again: neither a load nor an unload for callers.
func (r *Reloader) Reload(path string) error { // want Reload:"borrows\\[-1\\]"
	if err := r.Unload(); err != nil {
		return err
	}
	return r.Load(path)
}

// Load loads a code object file into r.
func (r *Reloader) Load(path string) error { // want Load:"loadsInto\\[-1\\]\\(status=0\\)"
	cpath := C.CString(path)
	defer C.free(unsafe.Pointer(cpath))
	return check(C.hipModuleLoad(&r.m, cpath))
}

// Safe: loaded, unloaded once by the defer, reloaded in between.
func loadDeferReload(path string) error {
	var r Reloader
	if err := r.Load(path); err != nil {
		return err
	}
	defer r.Unload()
	return r.Reload(path)
}

// Hazard twin: unloaded after the reload and again by the defer.
func loadDeferReloadUnload(path string) error {
	var r Reloader
	if err := r.Load(path); err != nil {
		return err
	}
	defer r.Unload()
	if err := r.Reload(path); err != nil {
		return err
	}
	return r.Unload() // want `module r is unloaded here and again by a deferred unload`
}

// Hazard: loaded and reloaded, never unloaded. Reload borrows r (what it
// unloads it loads again), so r still holds a module at the return; before
// Reload's borrows fact, passing r to it counted as handing the module on.
func loadReloadLeak(path string) error {
	var r Reloader
	if err := r.Load(path); err != nil { // want `module r loaded by Load is not unloaded on this return`
		return err
	}
	return r.Reload(path)
}
