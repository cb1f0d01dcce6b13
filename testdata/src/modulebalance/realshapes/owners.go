package realshapes

// #include <cuda.h>
import "C"

import "unsafe"

// Hazard: modules appended to a local slice; the error return drops the
// slice and every module loaded before the failing one.
func loadAllLeak(imgs []unsafe.Pointer) ([]C.CUmodule, error) {
	var mods []C.CUmodule
	for _, img := range imgs {
		var m C.CUmodule
		if err := check(C.cuModuleLoadData(&m, img)); err != nil { // want `modules kept in mods \(loaded by cuModuleLoadData\) are not unloaded on this return`
			return nil, err
		}
		mods = append(mods, m)
	}
	return mods, nil
}

// Safe twin: the error path unloads what was loaded.
func loadAllCleanup(imgs []unsafe.Pointer) ([]C.CUmodule, error) {
	var mods []C.CUmodule
	for _, img := range imgs {
		var m C.CUmodule
		if err := check(C.cuModuleLoadData(&m, img)); err != nil {
			for _, old := range mods {
				C.cuModuleUnload(old)
			}
			return nil, err
		}
		mods = append(mods, m)
	}
	return mods, nil
}

func unloadAll(mods []C.CUmodule) { // want unloadAll:"unloads\\[0\\]"
	for _, m := range mods {
		C.cuModuleUnload(m)
	}
}

// Safe twin: a helper unloads the slice on the error path.
func loadAllHelperCleanup(imgs []unsafe.Pointer) ([]C.CUmodule, error) {
	var mods []C.CUmodule
	for _, img := range imgs {
		var m C.CUmodule
		if err := check(C.cuModuleLoadData(&m, img)); err != nil {
			unloadAll(mods)
			return nil, err
		}
		mods = append(mods, m)
	}
	return mods, nil
}

// Registry owns modules by name.
type Registry struct {
	mods map[string]C.CUmodule
	list []C.CUmodule
}

func (r *Registry) Close() { // want Close:"unloads\\[-1\\]"
	for _, m := range r.list {
		C.cuModuleUnload(m)
	}
}

// Hazard: a local owner struct, dropped when a later load fails.
func newRegistryLeak(a, b unsafe.Pointer) (*Registry, error) {
	r := &Registry{}
	var m1 C.CUmodule
	if err := check(C.cuModuleLoadData(&m1, a)); err != nil { // want `modules kept in r.list \(loaded by cuModuleLoadData\) are not unloaded on this return`
		return nil, err
	}
	r.list = append(r.list, m1)
	var m2 C.CUmodule
	if err := check(C.cuModuleLoadData(&m2, b)); err != nil {
		return nil, err
	}
	r.list = append(r.list, m2)
	return r, nil
}

// Safe twin: the owner's Close runs on the error path.
func newRegistryClosed(a, b unsafe.Pointer) (*Registry, error) {
	r := &Registry{}
	var m1 C.CUmodule
	if err := check(C.cuModuleLoadData(&m1, a)); err != nil {
		return nil, err
	}
	r.list = append(r.list, m1)
	var m2 C.CUmodule
	if err := check(C.cuModuleLoadData(&m2, b)); err != nil {
		r.Close()
		return nil, err
	}
	r.list = append(r.list, m2)
	return r, nil
}

// Hazard: a local map of modules, dropped on the error return.
func loadNamedLeak(imgs map[string]unsafe.Pointer, fail func() error) (map[string]C.CUmodule, error) {
	mods := map[string]C.CUmodule{}
	for name, img := range imgs {
		var m C.CUmodule
		if err := check(C.cuModuleLoadData(&m, img)); err != nil { // want `modules kept in mods \(loaded by cuModuleLoadData\) are not unloaded on this return`
			return nil, err
		}
		mods[name] = m
	}
	if err := fail(); err != nil {
		return nil, err
	}
	return mods, nil
}

// Safe twin: the map is returned on every path that holds modules.
func loadNamed(imgs map[string]unsafe.Pointer) (map[string]C.CUmodule, error) {
	mods := map[string]C.CUmodule{}
	for name, img := range imgs {
		var m C.CUmodule
		if err := check(C.cuModuleLoadData(&m, img)); err != nil {
			for _, old := range mods {
				C.cuModuleUnload(old)
			}
			return nil, err
		}
		mods[name] = m
	}
	return mods, nil
}

// Pair owns two modules in fields.
type Pair struct{ a, b C.CUmodule }

// Hazard: the first module is stored in a field of a local owner, which the
// error return drops.
func newPairLeak(imgA, imgB unsafe.Pointer) (*Pair, error) {
	p := &Pair{}
	var a C.CUmodule
	if err := check(C.cuModuleLoadData(&a, imgA)); err != nil { // want `module p.a loaded by cuModuleLoadData is not unloaded on this return`
		return nil, err
	}
	p.a = a
	var b C.CUmodule
	if err := check(C.cuModuleLoadData(&b, imgB)); err != nil {
		return nil, err
	}
	p.b = b
	return p, nil
}

// Safe twin: the error path unloads the stored module.
func newPair(imgA, imgB unsafe.Pointer) (*Pair, error) {
	p := &Pair{}
	var a C.CUmodule
	if err := check(C.cuModuleLoadData(&a, imgA)); err != nil {
		return nil, err
	}
	p.a = a
	var b C.CUmodule
	if err := check(C.cuModuleLoadData(&b, imgB)); err != nil {
		C.cuModuleUnload(p.a)
		return nil, err
	}
	p.b = b
	return p, nil
}

// Safe: a deferred cleanup unloads the slice's modules when the function
// fails.
func loadAllDeferredCleanup(imgs []unsafe.Pointer) (mods []C.CUmodule, err error) {
	var loaded []C.CUmodule
	defer func() {
		if err != nil {
			for _, m := range loaded {
				C.cuModuleUnload(m)
			}
		}
	}()
	for _, img := range imgs {
		var m C.CUmodule
		if err := check(C.cuModuleLoadData(&m, img)); err != nil {
			return nil, err
		}
		loaded = append(loaded, m)
	}
	return loaded, nil
}

// Context keeps every module it loads and unloads them when it closes.
type Context struct{ modules []*Kernel }

// LoadKernel hands out a module the context keeps: not a constructor whose
// callers must unload. It adds the module to the context, which its callers
// then own.
func (c *Context) LoadKernel(img unsafe.Pointer) (*Kernel, error) { // want LoadKernel:"loadsInto\\[-1\\]\\(status=1\\) adds\\[-1\\]"
	k := &Kernel{}
	if err := check(C.cuModuleLoadData(&k.mod, img)); err != nil {
		return nil, err
	}
	c.modules = append(c.modules, k)
	return k, nil
}

func (c *Context) Close() { // want Close:"unloads\\[-1\\]"
	for _, k := range c.modules {
		C.cuModuleUnload(k.mod)
	}
}

// Safe: the context owns the kernel (and the caller owns the context).
func useContext(c *Context, img unsafe.Pointer) error { // want useContext:"loadsInto\\[0\\]\\(status=0\\) adds\\[0\\]"
	_, err := c.LoadKernel(img)
	return err
}

// Owned is a module its context may also unload; its unload clears the
// handle first, through a local copy.
type Owned struct{ c C.CUmodule }

func LoadOwned(img unsafe.Pointer) (*Owned, error) { // want LoadOwned:"returnsModule\\(result=0, status=1\\)"
	o := &Owned{}
	if err := newErr("cuModuleLoadData", C.cuModuleLoadData(&o.c, img)); err != nil {
		return nil, err
	}
	return o, nil
}

func (o *Owned) Unload() error { // want Unload:"unloads\\[-1\\] idempotent\\[-1\\]"
	if o.c == nil {
		return nil
	}
	h := o.c
	o.c = nil
	return newErr("cuModuleUnload", C.cuModuleUnload(h))
}

// Safe: the idempotent Unload, deferred and called.
func ownedTwice(img unsafe.Pointer) error {
	o, err := LoadOwned(img)
	if err != nil {
		return err
	}
	defer o.Unload()
	return o.Unload()
}
