package modules

// #include <hip/hip_runtime_api.h>
import "C"

import "matrix/moduleslib"

//matrix:hazard call-direct
func directLeak(path, name *C.char) error {
	md, err := Load(path) // want `not unloaded on this return`
	if err != nil {
		return err
	}
	if _, err := md.Function(name); err != nil {
		return err
	}
	return md.Close()
}

//matrix:twin call-direct
func directBalanced(path, name *C.char) error {
	md, err := Load(path)
	if err != nil {
		return err
	}
	defer md.Close()
	_, err = md.Function(name)
	return err
}

//matrix:hazard call-method-value
func methodValueTwice(path *C.char) {
	md, err := Load(path)
	if err != nil {
		return
	}
	unload := md.Close
	unload()
	md.Close() // want `is unloaded twice`
}

//matrix:twin call-method-value
func methodValueDeferred(path *C.char) error {
	md, err := Load(path)
	if err != nil {
		return err
	}
	unload := md.Close
	defer unload()
	return validate(md)
}

//matrix:hazard call-method-expr
func methodExprTwice(path *C.char) {
	md, err := Load(path)
	if err != nil {
		return
	}
	(*Module).Close(md)
	(*Module).Close(md) // want `is unloaded twice`
}

//matrix:twin call-method-expr
func methodExprOnce(path *C.char) error {
	md, err := Load(path)
	if err != nil {
		return err
	}
	defer (*Module).Close(md)
	return validate(md)
}

// Program embeds a Module by value: Close and Function are promoted.
type Program struct {
	Module
	name string
}

func openProgram(path *C.char) (*Program, error) {
	md, err := Load(path)
	if err != nil {
		return nil, err
	}
	return &Program{Module: *md, name: "prog"}, nil
}

//matrix:hazard call-promoted-value
func promotedValueUseAfter(path, name *C.char) error {
	p, err := openProgram(path)
	if err != nil {
		return err
	}
	p.Close()
	_, err = p.Function(name) // want `after it was unloaded`
	return err
}

//matrix:twin call-promoted-value
func promotedValueOrdered(path, name *C.char) error {
	p, err := openProgram(path)
	if err != nil {
		return err
	}
	defer p.Close()
	_, err = p.Function(name)
	return err
}

// Kernel embeds a *Module.
type Kernel struct {
	*Module
	fn C.hipFunction_t
}

//matrix:hazard call-promoted-pointer
func promotedPointerTwice(path *C.char) {
	md, err := Load(path)
	if err != nil {
		return
	}
	k := &Kernel{Module: md}
	k.Close()
	k.Close() // want `is unloaded twice`
}

//matrix:twin call-promoted-pointer
func promotedPointerOnce(path *C.char) error {
	md, err := Load(path)
	if err != nil {
		return err
	}
	k := &Kernel{Module: md}
	defer k.Close()
	return validate(k.Module)
}

// Pipeline embeds a Kernel, which embeds a *Module: two levels.
type Pipeline struct {
	Kernel
	stages int
}

//matrix:hazard call-promoted-two
func promotedTwoUseAfter(path, name *C.char) error {
	md, err := Load(path)
	if err != nil {
		return err
	}
	p := Pipeline{Kernel: Kernel{Module: md}}
	p.Close()
	_, err = p.Function(name) // want `after it was unloaded`
	return err
}

//matrix:twin call-promoted-two
func promotedTwoOrdered(path, name *C.char) error {
	md, err := Load(path)
	if err != nil {
		return err
	}
	p := Pipeline{Kernel: Kernel{Module: md}}
	_, err = p.Function(name)
	p.Close()
	return err
}

// Releaser is what a pool releases.
type Releaser interface{ Close() error }

func release(r Releaser) { r.Close() } // want release:"unloads\\[0\\]"

//matrix:hazard call-iface-local
func ifaceLocalTwice(path *C.char) {
	md, err := Load(path)
	if err != nil {
		return
	}
	release(md)
	md.Close() // want `is unloaded twice`
}

//matrix:twin call-iface-local
func ifaceLocalOnce(path *C.char) error {
	md, err := Load(path)
	if err != nil {
		return err
	}
	defer release(md)
	return validate(md)
}

//matrix:hazard call-iface-cross
func ifaceCrossTwice(image []byte) {
	md, err := moduleslib.Load(image)
	if err != nil {
		return
	}
	release(md)
	md.Close() // want `is unloaded twice`
}

//matrix:twin call-iface-cross
func ifaceCrossOnce(image []byte) error {
	md, err := moduleslib.Load(image)
	if err != nil {
		return err
	}
	var r Releaser = md
	return r.Close()
}

// Registry keeps the unload of its module as a function value.
type Registry struct {
	unload func() error
}

//matrix:hazard call-func-field
func funcFieldTwice(path *C.char) {
	md, err := Load(path)
	if err != nil {
		return
	}
	r := Registry{unload: md.Close}
	r.unload()
	md.Close() // want `is unloaded twice`
}

//matrix:twin call-func-field
func funcFieldOnce(path *C.char) error {
	md, err := Load(path)
	if err != nil {
		return err
	}
	r := Registry{unload: md.Close}
	defer r.unload()
	return validate(md)
}

//matrix:hazard call-func-map
func funcMapTwice(path *C.char) {
	md, err := Load(path)
	if err != nil {
		return
	}
	hooks := map[string]func() error{"close": md.Close}
	hooks["close"]()
	md.Close() // want `is unloaded twice`
}

//matrix:twin call-func-map
func funcMapOnce(path *C.char) error {
	md, err := Load(path)
	if err != nil {
		return err
	}
	hooks := map[string]func() error{"close": md.Close}
	defer hooks["close"]()
	return validate(md)
}

// Engine is built with functional options.
type Engine struct {
	mod   *Module
	batch int
}

// Option configures an Engine.
type Option func(*Engine) error

// WithBatch sets the batch size.
func WithBatch(n int) Option {
	return func(e *Engine) error {
		if n <= 0 {
			return errBad
		}
		e.batch = n
		return nil
	}
}

//matrix:hazard call-options
func NewEngineLeaky(path *C.char, opts ...Option) (*Engine, error) {
	md, err := Load(path) // want `module md loaded by Load is not unloaded on this return`
	if err != nil {
		return nil, err
	}
	e := &Engine{mod: md}
	for _, o := range opts {
		if err := o(e); err != nil {
			return nil, err
		}
	}
	return e, nil
}

//matrix:twin call-options
func NewEngine(path *C.char, opts ...Option) (*Engine, error) {
	md, err := Load(path)
	if err != nil {
		return nil, err
	}
	e := &Engine{mod: md}
	for _, o := range opts {
		if err := o(e); err != nil {
			md.Close()
			return nil, err
		}
	}
	return e, nil
}

func releaseAny[T Releaser](x T) { x.Close() } // want releaseAny:"unloads\\[0\\]"

//matrix:hazard call-generic-func
func genericFuncTwice(path *C.char) {
	md, err := Load(path)
	if err != nil {
		return
	}
	releaseAny(md)
	md.Close() // want `is unloaded twice`
}

//matrix:twin call-generic-func
func genericFuncOnce(path *C.char) error {
	md, err := Load(path)
	if err != nil {
		return err
	}
	defer releaseAny(md)
	return validate(md)
}

// Handle pairs a module with a value of any type.
type Handle[T any] struct {
	mod *Module
	val T
}

// Release unloads the handle's module.
func (h *Handle[T]) Release() { h.mod.Close() } // want Release:"unloads\\[\\-1\\]"

//matrix:hazard call-generic-method
func genericMethodTwice(path *C.char) {
	md, err := Load(path)
	if err != nil {
		return
	}
	h := &Handle[int]{mod: md}
	h.Release()
	md.Close() // want `module md is unloaded twice`
}

//matrix:twin call-generic-method
func genericMethodOnce(path *C.char) error {
	md, err := Load(path)
	if err != nil {
		return err
	}
	h := &Handle[string]{mod: md}
	defer h.Release()
	return validate(md)
}
