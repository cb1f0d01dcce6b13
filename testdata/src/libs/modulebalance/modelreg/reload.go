package modelreg

// #include <hip/hip_runtime_api.h>
import "C"

import "unsafe"

// Reload swaps in a new version of a model. The old version stays loaded
// for the requests that hold it.
func (r *Registry) Reload(name string) error {
	image, err := r.src.Image(name)
	if err != nil {
		return err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	version := 1
	old := r.models[name]
	if old != nil {
		version = old.Version + 1
	}
	md, err := newModel(name, version, image, r.maxBytes)
	if err != nil {
		return err
	}
	r.models[name] = md
	if old != nil {
		old.retire()
	}
	return nil
}

// ReloadVerified swaps in a new version after comparing its output with
// the old one's on a probe input. Hazard: the old module is unloaded before
// the comparison launches its forward kernel.
func (r *Registry) ReloadVerified(name string, probe, want, got unsafe.Pointer, n int) error {
	image, err := r.src.Image(name)
	if err != nil {
		return err
	}
	old := r.models[name]
	md, err := newModel(name, old.Version+1, image, r.maxBytes)
	if err != nil {
		return err
	}
	r.models[name] = md
	C.hipModuleUnload(old.mod)
	if err := launchForward(old.forward, old.params, probe, want, n); err != nil { // want `launchForward launches old.forward, whose module old.mod was unloaded`
		return err
	}
	return md.Forward(probe, got, n)
}

// ReloadCompared is its twin: the old version runs first, then is retired.
func (r *Registry) ReloadCompared(name string, probe, want, got unsafe.Pointer, n int) error {
	image, err := r.src.Image(name)
	if err != nil {
		return err
	}
	old := r.models[name]
	md, err := newModel(name, old.Version+1, image, r.maxBytes)
	if err != nil {
		return err
	}
	if err := launchForward(old.forward, old.params, probe, want, n); err != nil {
		C.hipModuleUnload(md.mod)
		return err
	}
	r.models[name] = md
	old.retire()
	return md.Forward(probe, got, n)
}
