// Package registry keeps compiled kernels the way inference servers do: a
// Module wrapper with Load and Close, a process-wide module reached through
// a no-argument getter, an engine that keeps its module in a struct it
// builds, and a generic slot pairing a module with per-model state. Each
// hazard has its safe twin next to it.
package registry

// #cgo CFLAGS: -I${SRCDIR}/../../../include
// #include <hip/hip_runtime_api.h>
// #include <stdlib.h>
import "C"

import (
	"errors"
	"fmt"
	"unsafe"
)

var errBatch = errors.New("registry: batch size must be positive")

// Module owns one loaded code object.
type Module struct{ m C.hipModule_t }

func check(r C.hipError_t) error {
	if r != C.hipSuccess {
		return fmt.Errorf("hip error %d", int(r))
	}
	return nil
}

// Load loads the code object file at path.
func Load(path string) (*Module, error) { // want Load:"returnsModule\\(result=0, status=1\\)"
	cs := C.CString(path)
	defer C.free(unsafe.Pointer(cs))
	var m C.hipModule_t
	if err := check(C.hipModuleLoad(&m, cs)); err != nil {
		return nil, err
	}
	return &Module{m: m}, nil
}

// Close unloads the module.
func (md *Module) Close() error { return check(C.hipModuleUnload(md.m)) } // want Close:"unloads\\[\\-1\\]"

// Function looks the named kernel up in the module.
func (md *Module) Function(name string) (C.hipFunction_t, error) { // want Function:"borrows\\[\\-1\\] uses\\[\\-1\\]"
	cs := C.CString(name)
	defer C.free(unsafe.Pointer(cs))
	var f C.hipFunction_t
	err := check(C.hipModuleGetFunction(&f, md.m, cs))
	return f, err
}

var shared *Module

// Shared returns the process-wide module Init loaded.
func Shared() *Module { return shared }

// Init loads the process-wide module.
func Init(path string) error {
	md, err := Load(path)
	if err != nil {
		return err
	}
	shared = md
	return nil
}

// Restart closes the process-wide module, then warms its kernel up: the
// lookup goes to the module just unloaded.
func Restart(path string) error {
	Shared().Close()
	if _, err := Shared().Function("warmup"); err != nil { // want `Function uses module shared after it was unloaded`
		return err
	}
	return Init(path)
}

// RestartWarm is its twin: the warm-up comes first.
func RestartWarm(path string) error {
	if _, err := Shared().Function("warmup"); err != nil {
		return err
	}
	Shared().Close()
	return Init(path)
}

// Engine runs one model's kernels from the module it keeps.
type Engine struct {
	mod   *Module
	batch int
}

// NewEngine loads the model and builds the engine around it: the module
// stored in the engine leaks when the batch size is rejected.
func NewEngine(path string, batch int) (*Engine, error) {
	md, err := Load(path) // want `module md loaded by Load is not unloaded on this return`
	if err != nil {
		return nil, err
	}
	e := &Engine{mod: md}
	if batch <= 0 {
		return nil, errBatch
	}
	e.batch = batch
	return e, nil
}

// NewEngineChecked is its twin: the rejected engine's module is closed.
func NewEngineChecked(path string, batch int) (*Engine, error) {
	md, err := Load(path)
	if err != nil {
		return nil, err
	}
	e := &Engine{mod: md}
	if batch <= 0 {
		e.mod.Close()
		return nil, errBatch
	}
	e.batch = batch
	return e, nil
}

// Option configures an Engine as Open builds it.
type Option func(*Engine) error

// WithBatch sets the batch size.
func WithBatch(n int) Option {
	return func(e *Engine) error {
		if n <= 0 {
			return errBatch
		}
		e.batch = n
		return nil
	}
}

// Open loads the model and applies the options to the engine around it: an
// option's error drops the engine and the module in it.
func Open(path string, opts ...Option) (*Engine, error) {
	md, err := Load(path) // want `module md loaded by Load is not unloaded on this return`
	if err != nil {
		return nil, err
	}
	e := &Engine{mod: md, batch: 1}
	for _, opt := range opts {
		if err := opt(e); err != nil {
			return nil, fmt.Errorf("registry: open %s: %w", path, err)
		}
	}
	return e, nil
}

// OpenClosing is its twin: an option's error closes the engine's module.
func OpenClosing(path string, opts ...Option) (*Engine, error) {
	md, err := Load(path)
	if err != nil {
		return nil, err
	}
	e := &Engine{mod: md, batch: 1}
	for _, opt := range opts {
		if err := opt(e); err != nil {
			e.Close()
			return nil, fmt.Errorf("registry: open %s: %w", path, err)
		}
	}
	return e, nil
}

// Close unloads the engine's module.
func (e *Engine) Close() error { return e.mod.Close() } // want Close:"unloads\\[\\-1\\]"

// Slot pairs a module with a model's state of any type.
type Slot[S any] struct {
	mod   *Module
	state S
}

// Close unloads the slot's module.
func (s *Slot[S]) Close() error { return s.mod.Close() } // want Close:"unloads\\[\\-1\\]"

// Stats is a model's serving state.
type Stats struct{ served int }

// Probe loads a model into a slot to check its kernel is there, and on a
// miss closes the slot and then the module it holds: one module, two
// unloads.
func Probe(path, name string) error {
	md, err := Load(path)
	if err != nil {
		return err
	}
	slot := &Slot[Stats]{mod: md}
	if _, err := md.Function(name); err != nil {
		slot.Close()
		md.Close() // want `module md is unloaded twice`
		return err
	}
	return slot.Close()
}

// ProbeOnce is its twin: the slot's Close is the only unload.
func ProbeOnce(path, name string) error {
	md, err := Load(path)
	if err != nil {
		return err
	}
	slot := &Slot[Stats]{mod: md}
	defer slot.Close()
	_, err = md.Function(name)
	return err
}

// Kernel is a kernel of a code object it owns, the way raw bindings keep
// the handles.
type Kernel struct {
	mod C.hipModule_t
	fn  C.hipFunction_t
}

// Load loads the code object at path into k and takes the named kernel;
// a code object without it is replaced by the generic build, and the first
// module, still in k.mod, is dropped.
func (k *Kernel) Load(path, generic, name string) error { // want Load:"loadsInto\\[\\-1\\]\\(status=0\\)"
	cpath, cgeneric, cname := C.CString(path), C.CString(generic), C.CString(name)
	defer C.free(unsafe.Pointer(cpath))
	defer C.free(unsafe.Pointer(cgeneric))
	defer C.free(unsafe.Pointer(cname))
	if err := check(C.hipModuleLoad(&k.mod, cpath)); err != nil { // want `module k.mod loaded by hipModuleLoad is still loaded when its handle is loaded again`
		return err
	}
	if C.hipModuleGetFunction(&k.fn, k.mod, cname) == C.hipSuccess {
		return nil
	}
	if err := check(C.hipModuleLoad(&k.mod, cgeneric)); err != nil {
		return err
	}
	return check(C.hipModuleGetFunction(&k.fn, k.mod, cname))
}

// LoadOrGeneric is its twin: the first module is unloaded before the
// generic build takes its place.
func (k *Kernel) LoadOrGeneric(path, generic, name string) error { // want LoadOrGeneric:"borrows\\[\\-1\\] uses\\[\\-1\\]"
	cpath, cgeneric, cname := C.CString(path), C.CString(generic), C.CString(name)
	defer C.free(unsafe.Pointer(cpath))
	defer C.free(unsafe.Pointer(cgeneric))
	defer C.free(unsafe.Pointer(cname))
	if err := check(C.hipModuleLoad(&k.mod, cpath)); err != nil {
		return err
	}
	if C.hipModuleGetFunction(&k.fn, k.mod, cname) == C.hipSuccess {
		return nil
	}
	C.hipModuleUnload(k.mod)
	if err := check(C.hipModuleLoad(&k.mod, cgeneric)); err != nil {
		return err
	}
	return check(C.hipModuleGetFunction(&k.fn, k.mod, cname))
}

// Default is the process's kernel; Reset unloads its code object.
var Default Kernel

// Reset unloads Default's code object.
func Reset() { C.hipModuleUnload(Default.mod) }
