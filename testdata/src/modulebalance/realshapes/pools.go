package realshapes

// #include <cuda.h>
import "C"

import "unsafe"

// imagePool keeps the modules its load method loads; unloadAll unloads them.
type imagePool struct{ mods []C.CUmodule }

func (p *imagePool) load(img unsafe.Pointer) error { // want load:"loadsInto\\[-1\\]\\(status=0\\) adds\\[-1\\]"
	var m C.CUmodule
	if err := check(C.cuModuleLoadData(&m, img)); err != nil {
		return err
	}
	p.mods = append(p.mods, m)
	return nil
}

func (p *imagePool) unloadAll() { // want unloadAll:"unloads\\[-1\\]"
	for _, m := range p.mods {
		C.cuModuleUnload(m)
	}
	p.mods = p.mods[:0]
}

// Hazard: an image that fails to load drops the pool and the modules of the
// images before it.
func loadImagesLeak(imgs []unsafe.Pointer) (int, error) {
	p := &imagePool{}
	for _, img := range imgs {
		if err := p.load(img); err != nil { // want `modules kept in p \(loaded by load\) are not unloaded on this return`
			return 0, err
		}
	}
	n := len(p.mods)
	p.unloadAll()
	return n, nil
}

// Safe twin: the pool's cleanup is deferred before the first load.
func loadImages(imgs []unsafe.Pointer) (int, error) {
	p := &imagePool{}
	defer p.unloadAll()
	for _, img := range imgs {
		if err := p.load(img); err != nil {
			return 0, err
		}
	}
	return len(p.mods), nil
}

// Safe twin: the error path unloads the pool inline.
func loadImagesInline(imgs []unsafe.Pointer) error {
	p := &imagePool{}
	for _, img := range imgs {
		if err := p.load(img); err != nil {
			for _, m := range p.mods {
				C.cuModuleUnload(m)
			}
			return err
		}
	}
	p.unloadAll()
	return nil
}

// Safe: the pool is a field of the receiver, which outlives the call; warm
// adds to it, and its callers own the engine.
type engine struct{ pool imagePool }

func (e *engine) warm(imgs []unsafe.Pointer) error { // want warm:"loadsInto\\[-1\\]\\(status=0\\) adds\\[-1\\]"
	for _, img := range imgs {
		if err := e.pool.load(img); err != nil {
			return err
		}
	}
	return nil
}

// Hazard: the pool is a field of a local engine; the second load's failure
// drops the engine with the first module.
func warmTwoLeak(a, b unsafe.Pointer) error {
	e := &engine{}
	if err := e.pool.load(a); err != nil { // want `modules kept in e.pool \(loaded by load\) are not unloaded on this return`
		return err
	}
	if err := e.pool.load(b); err != nil {
		return err
	}
	e.pool.unloadAll()
	return nil
}

// Safe twin: the field's cleanup is deferred.
func warmTwo(a, b unsafe.Pointer) error {
	e := &engine{}
	defer e.pool.unloadAll()
	if err := e.pool.load(a); err != nil {
		return err
	}
	return e.pool.load(b)
}
