// Package realhip holds module-balance shapes of HIP libraries (issue 19):
// struct handle types, methods that load into their receiver, idempotent
// Close methods, owners of several modules. Each hazard has a safe twin.
package realhip

// #cgo CFLAGS: -I${SRCDIR}/../../../include
// #include <hip/hip_runtime_api.h>
// #include <stdlib.h>
import "C"

import (
	"fmt"
	"runtime"
	"unsafe"
)

func check(r C.hipError_t) error {
	if r != C.hipSuccess {
		return fmt.Errorf("hip error %d", int(r))
	}
	return nil
}

// Module is a struct handle type that loads into its receiver.
type Module struct {
	m C.hipModule_t
}

// Load loads a code object file into m.
func (m *Module) Load(path string) error { // want Load:"loadsInto\\[-1\\]\\(status=0\\)"
	cpath := C.CString(path)
	defer C.free(unsafe.Pointer(cpath))
	return check(C.hipModuleLoad(&m.m, cpath))
}

// Unload releases the module.
func (m *Module) Unload() error { // want Unload:"unloads\\[-1\\]"
	return check(C.hipModuleUnload(m.m))
}

// Function looks a kernel up.
func (m *Module) Function(name *C.char) (C.hipFunction_t, error) { // want Function:"borrows\\[-1\\]"
	var f C.hipFunction_t
	err := check(C.hipModuleGetFunction(&f, m.m, name))
	return f, err
}

// Hazard: the caller loads through the method and never unloads.
func loadWithoutUnload(path string, name *C.char) error {
	var m Module
	if err := m.Load(path); err != nil { // want `module m loaded by Load is not unloaded on this return`
		return err
	}
	_, err := m.Function(name)
	return err
}

// Safe twin: the caller defers the unload after the check.
func loadThenDeferUnload(path string, name *C.char) error {
	var m Module
	if err := m.Load(path); err != nil {
		return err
	}
	defer m.Unload()
	_, err := m.Function(name)
	return err
}

// Hazard: a pointer owner, unloaded on the happy path only.
func pointerOwnerLeak(path string, name *C.char) error {
	m := &Module{}
	if err := m.Load(path); err != nil { // want `module m loaded by Load is not unloaded on this return`
		return err
	}
	if _, err := m.Function(name); err != nil {
		return err
	}
	return m.Unload()
}

// Kernel keeps its module in a field and loads it through the field's method:
// the obligation moves on to Kernel's callers.
type Kernel struct {
	mod Module
	fn  C.hipFunction_t
}

func (k *Kernel) Init(path string, name *C.char) error { // want Init:"loadsInto\\[-1\\]\\(status=0\\)"
	if err := k.mod.Load(path); err != nil {
		return err
	}
	f, err := k.mod.Function(name)
	k.fn = f
	return err
}

func (k *Kernel) Close() error { // want Close:"unloads\\[-1\\]"
	return k.mod.Unload()
}

// Hazard: Init's module is never released.
func kernelLeak(path string, name *C.char) error {
	k := new(Kernel)
	return k.Init(path, name) // want `module k loaded by Init is not unloaded on this return`
}

// Safe twin: Close deferred.
func kernelClosed(path string, name *C.char) error {
	var k Kernel
	defer k.Close()
	return k.Init(path, name)
}

// A constructor built on the method: its callers own the module.
func NewModule(path string) (*Module, error) { // want NewModule:"returnsModule\\(result=0, status=1\\)"
	m := &Module{}
	if err := m.Load(path); err != nil {
		return nil, err
	}
	return m, nil
}

// Reload unloads and loads again: the caller's obligation does not change.
func (m *Module) Reload(path string) error { // want Reload:"borrows\\[-1\\]"
	if err := m.Unload(); err != nil {
		return err
	}
	return m.Load(path)
}

// Safe: reloading a module the function owns, then unloading it once.
func reloadOnce(path string) error {
	m, err := NewModule(path)
	if err != nil {
		return err
	}
	defer m.Unload()
	return m.Reload(path)
}

// Safe: the deferred Close binds the pointer, and the load goes into the
// struct it points to.
func deferOnPointerBeforeLoad(path string) error {
	m := &Module{}
	defer m.Unload()
	return m.Load(path)
}

// Hazard twin: the deferred call binds the nil pointer the variable holds at
// the defer; the constructor's module goes into a new value of the variable.
func deferOnNilPointerThenAssign(path string) error {
	var m *Module
	defer m.Unload()
	var err error
	m, err = NewModule(path) // want `module m loaded by NewModule is not unloaded on this return`
	return err
}

// Finalized sets a finalizer on every value its constructor makes: the
// finalizer owns what Load puts in it, so Load's callers owe nothing.
type Finalized struct{ m C.hipModule_t }

func NewFinalized() *Finalized {
	f := &Finalized{}
	runtime.SetFinalizer(f, (*Finalized).Unload)
	return f
}

func (f *Finalized) Load(path *C.char) error {
	return check(C.hipModuleLoad(&f.m, path))
}

func (f *Finalized) Unload() { // want Unload:"unloads\\[-1\\]"
	C.hipModuleUnload(f.m)
}

// Safe: owned by the finalizer.
func useFinalized(path *C.char) error {
	f := NewFinalized()
	return f.Load(path)
}
