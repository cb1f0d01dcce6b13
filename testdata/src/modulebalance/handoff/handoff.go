// Package handoff holds modules handed on through the language rather
// than through plain calls: named results a deferred cleanup reads, a
// channel a function hands a module to itself through, and a scoped
// helper that lends its module to the closure it is given.
package handoff

// #cgo CFLAGS: -I${SRCDIR}/../../../include
// #include <hip/hip_runtime_api.h>
import "C"

import (
	"errors"
	"fmt"
)

var errNoKernel = errors.New("kernel not found")

func check(r C.hipError_t) error {
	if r != C.hipSuccess {
		return fmt.Errorf("hip error %d", int(r))
	}
	return nil
}

// Kernel is a module with one kernel looked up in it.
type Kernel struct {
	mod C.hipModule_t
	fn  C.hipFunction_t
}

// loadKernel loads the module into its named result and unloads it on
// error from a deferred closure; the lookup's failure returns nil for the
// module, so the closure unloads nil and the module leaks.
func loadKernel(path, name *C.char) (mod C.hipModule_t, fn C.hipFunction_t, err error) { // want loadKernel:"returnsFunction\\(result=1, module=0\\)"
	if err = check(C.hipModuleLoad(&mod, path)); err != nil { // want `module mod loaded by hipModuleLoad is not unloaded on this return, which sets mod to nil before the deferred unload reads it`
		return nil, nil, err
	}
	defer func() {
		if err != nil {
			C.hipModuleUnload(mod)
		}
	}()
	if err = check(C.hipModuleGetFunction(&fn, mod, name)); err != nil {
		return nil, nil, err
	}
	return mod, fn, nil
}

// loadKernelKept is loadKernel returning the module it loaded on error
// too: the deferred closure unloads it (the caller ignores the results
// when err is not nil).
func loadKernelKept(path, name *C.char) (mod C.hipModule_t, fn C.hipFunction_t, err error) { // want loadKernelKept:"returnsFunction\\(result=1, module=0\\)"
	if err = check(C.hipModuleLoad(&mod, path)); err != nil {
		return mod, nil, err
	}
	defer func() {
		if err != nil {
			C.hipModuleUnload(mod)
		}
	}()
	if err = check(C.hipModuleGetFunction(&fn, mod, name)); err != nil {
		return mod, nil, err
	}
	return mod, fn, nil
}

// newKernel is the usual shape: a local module, the named error read by
// the deferred cleanup.
func newKernel(path, name *C.char) (k *Kernel, err error) { // want newKernel:"returnsModule\\(result=0, status=1\\)"
	var mod C.hipModule_t
	if err = check(C.hipModuleLoad(&mod, path)); err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			C.hipModuleUnload(mod)
		}
	}()
	var fn C.hipFunction_t
	if err = check(C.hipModuleGetFunction(&fn, mod, name)); err != nil {
		return nil, err
	}
	if fn == nil {
		return nil, errNoKernel
	}
	return &Kernel{mod: mod, fn: fn}, nil
}

// A one-slot pool: the module goes into the channel and comes back out
// of it in the same function, so what is received is the module sent.

// warmUp parks the module in its idle slot, takes it back to look the
// kernel up and unloads what it took; the deferred unload of the module
// sent unloads it again.
func warmUp(path, name *C.char) error {
	var mod C.hipModule_t
	if err := check(C.hipModuleLoad(&mod, path)); err != nil {
		return err
	}
	defer C.hipModuleUnload(mod)
	idle := make(chan C.hipModule_t, 1)
	idle <- mod
	m := <-idle
	var fn C.hipFunction_t
	err := check(C.hipModuleGetFunction(&fn, m, name))
	C.hipModuleUnload(m) // want `module mod is unloaded here and again by a deferred unload`
	return err
}

// warmUpOnce unloads the module once, through what it took back.
func warmUpOnce(path, name *C.char) error {
	var mod C.hipModule_t
	if err := check(C.hipModuleLoad(&mod, path)); err != nil {
		return err
	}
	idle := make(chan C.hipModule_t, 1)
	idle <- mod
	m := <-idle
	defer C.hipModuleUnload(m)
	var fn C.hipFunction_t
	return check(C.hipModuleGetFunction(&fn, m, name))
}

// probe parks the module and takes it back, but unloads it on success
// only: the channel dies with the function and the failure path leaks it.
func probe(path, name *C.char) error {
	var mod C.hipModule_t
	if err := check(C.hipModuleLoad(&mod, path)); err != nil { // want `module mod loaded by hipModuleLoad is not unloaded on this return`
		return err
	}
	idle := make(chan C.hipModule_t, 1)
	idle <- mod
	m := <-idle
	var fn C.hipFunction_t
	if err := check(C.hipModuleGetFunction(&fn, m, name)); err != nil {
		return err
	}
	return check(C.hipModuleUnload(m))
}

// probeAll unloads what it took back on both paths.
func probeAll(path, name *C.char) error {
	var mod C.hipModule_t
	if err := check(C.hipModuleLoad(&mod, path)); err != nil {
		return err
	}
	idle := make(chan C.hipModule_t, 1)
	idle <- mod
	m := <-idle
	var fn C.hipFunction_t
	if err := check(C.hipModuleGetFunction(&fn, m, name)); err != nil {
		C.hipModuleUnload(m)
		return err
	}
	return check(C.hipModuleUnload(m))
}

// handOff sends the module to a worker the caller runs: the channel is the
// caller's, so the module is the worker's to unload.
func handOff(path *C.char, work chan<- C.hipModule_t) error {
	var mod C.hipModule_t
	if err := check(C.hipModuleLoad(&mod, path)); err != nil {
		return err
	}
	work <- mod
	return nil
}

// WithModule loads the code object at path, lends the module to fn and
// unloads it when fn returns.
func WithModule(path *C.char, fn func(C.hipModule_t) error) error { // want WithModule:"lends\\[1:0\\]"
	var mod C.hipModule_t
	if err := check(C.hipModuleLoad(&mod, path)); err != nil {
		return err
	}
	defer C.hipModuleUnload(mod)
	return fn(mod)
}

// RunOnce launches the kernel and unloads the module it was lent: WithModule
// unloads it again.
func RunOnce(path, name *C.char) error {
	return WithModule(path, func(mod C.hipModule_t) error {
		var fn C.hipFunction_t
		if err := check(C.hipModuleGetFunction(&fn, mod, name)); err != nil {
			return err
		}
		return check(C.hipModuleUnload(mod)) // want `module mod is unloaded here and again by WithModule, which lends it to this closure and unloads it when the closure returns`
	})
}

// RunScoped leaves the unload to WithModule.
func RunScoped(path, name *C.char) error {
	return WithModule(path, func(mod C.hipModule_t) error {
		var fn C.hipFunction_t
		return check(C.hipModuleGetFunction(&fn, mod, name))
	})
}

// Scoped is a module whose Close is guarded by a flag it clears.
type Scoped struct {
	mod    C.hipModule_t
	loaded bool
}

// Close unloads the module once.
func (s *Scoped) Close() { // want Close:"unloads\\[-1\\] idempotent\\[-1\\]"
	if s.loaded {
		C.hipModuleUnload(s.mod)
		s.loaded = false
	}
}

// WithScoped lends a Scoped module to fn and closes it when fn returns:
// its Close is idempotent, so it lends nothing a closure could unload
// twice.
func WithScoped(path *C.char, fn func(*Scoped) error) error {
	s := &Scoped{}
	if err := check(C.hipModuleLoad(&s.mod, path)); err != nil {
		return err
	}
	s.loaded = true
	defer s.Close()
	return fn(s)
}

// RunScopedEarly closes the module it was lent early; WithScoped's Close
// then unloads nothing.
func RunScopedEarly(path, name *C.char) error {
	return WithScoped(path, func(s *Scoped) error {
		defer s.Close()
		var fn C.hipFunction_t
		return check(C.hipModuleGetFunction(&fn, s.mod, name))
	})
}

// runInPlace runs fn where it is called.
func runInPlace(fn func() error) error { return fn() }

// deferInClosure unloads in a deferred call of a closure it runs in place:
// the unload runs when the closure returns, after the look-up.
func deferInClosure(path, name *C.char) error {
	var mod C.hipModule_t
	if err := check(C.hipModuleLoad(&mod, path)); err != nil {
		return err
	}
	return runInPlace(func() error {
		defer C.hipModuleUnload(mod)
		var fn C.hipFunction_t
		return check(C.hipModuleGetFunction(&fn, mod, name))
	})
}

// deferInClosureTooEarly looks the kernel up after the closure returned:
// its deferred unload has run.
func deferInClosureTooEarly(path, name *C.char) error {
	var mod C.hipModule_t
	if err := check(C.hipModuleLoad(&mod, path)); err != nil {
		return err
	}
	if err := runInPlace(func() error {
		defer C.hipModuleUnload(mod)
		return nil
	}); err != nil {
		return err
	}
	var fn C.hipFunction_t
	return check(C.hipModuleGetFunction(&fn, mod, name)) // want `hipModuleGetFunction uses module mod after it was unloaded`
}
