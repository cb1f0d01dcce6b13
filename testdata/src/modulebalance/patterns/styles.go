// Package patterns holds module-balance hazards and their correct twins in
// the styles real Go GPU code is written in.
package patterns

/*
#include <stddef.h>
typedef int hipError_t;
typedef struct ihipModule_t* hipModule_t;
typedef struct ihipModuleSymbol_t* hipFunction_t;
#define HIP_OK 0
hipError_t hipModuleLoad(hipModule_t* module, const char* fname);
hipError_t hipModuleUnload(hipModule_t module);
hipError_t hipModuleGetFunction(hipFunction_t* f, hipModule_t module, const char* name);
*/
import "C"

import (
	"errors"
	"fmt"
	"runtime"
	"sync"
	"unsafe"
)

// Style: prototypes declared by hand, status as a local macro, and a
// status type with an error method.
type status C.hipError_t

func (s status) error(what string) error {
	if s != C.HIP_OK {
		return fmt.Errorf("%s: %d", what, int(s))
	}
	return nil
}

func handDeclLeak(path, name *C.char) (C.hipFunction_t, error) { // want handDeclLeak:"returnsFunction\\(result=0, unloaded\\)"
	var m C.hipModule_t
	if err := status(C.hipModuleLoad(&m, path)).error("load"); err != nil { // want `module m loaded by hipModuleLoad is not unloaded on this return`
		return nil, err
	}
	var f C.hipFunction_t
	if err := status(C.hipModuleGetFunction(&f, m, name)).error("function"); err != nil {
		return nil, err
	}
	C.hipModuleUnload(m)
	return f, nil
}

func handDeclBalanced(path *C.char) error {
	var m C.hipModule_t
	if err := status(C.hipModuleLoad(&m, path)).error("load"); err != nil {
		return err
	}
	defer C.hipModuleUnload(m)
	return nil
}

// Style: a Result helper that panics on failure.
func Result(r C.hipError_t) {
	if r != C.HIP_OK {
		panic(fmt.Sprintf("hip error %d", int(r)))
	}
}

func resultLeak(path *C.char, fail bool) error {
	var m C.hipModule_t
	Result(C.hipModuleLoad(&m, path)) // want `module m loaded by hipModuleLoad is not unloaded on this return`
	if fail {
		return errors.New("early")
	}
	Result(C.hipModuleUnload(m))
	return nil
}

// Style: every call runs on a locked OS thread through ctx.Do.
type Context struct{ mu sync.Mutex }

func (c *Context) Do(fn func() error) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	return fn()
}

func check(r C.hipError_t) error {
	if r != C.HIP_OK {
		return fmt.Errorf("hip error %d", int(r))
	}
	return nil
}

func ctxDoLeak(ctx *Context, path, name *C.char) (C.hipFunction_t, error) { // want ctxDoLeak:"returnsFunction\\(result=0, unloaded\\)"
	var m C.hipModule_t
	if err := ctx.Do(func() error { return check(C.hipModuleLoad(&m, path)) }); err != nil { // want `module m loaded by hipModuleLoad is not unloaded on this return`
		return nil, err
	}
	var f C.hipFunction_t
	if err := ctx.Do(func() error { return check(C.hipModuleGetFunction(&f, m, name)) }); err != nil {
		return nil, err
	}
	ctx.Do(func() error { return check(C.hipModuleUnload(m)) })
	return f, nil
}

func ctxDoBalanced(ctx *Context, path *C.char) error {
	var m C.hipModule_t
	if err := ctx.Do(func() error { return check(C.hipModuleLoad(&m, path)) }); err != nil {
		return err
	}
	defer ctx.Do(func() error { return check(C.hipModuleUnload(m)) })
	return nil
}

// Style: handles kept as uintptr and converted back and forth.
type handle uintptr

func uintptrLeak(path, name *C.char) (handle, uintptr, error) {
	var m C.hipModule_t
	if err := check(C.hipModuleLoad(&m, path)); err != nil { // want `module h loaded by hipModuleLoad is not unloaded on this return`
		return 0, 0, err
	}
	h := handle(uintptr(unsafe.Pointer(m)))
	var f C.hipFunction_t
	if err := check(C.hipModuleGetFunction(&f, C.hipModule_t(unsafe.Pointer(uintptr(h))), name)); err != nil {
		return 0, 0, err
	}
	return h, uintptr(unsafe.Pointer(f)), nil
}

func uintptrUnload(h handle) error { // want uintptrUnload:"unloads\\[0\\]"
	return check(C.hipModuleUnload(C.hipModule_t(unsafe.Pointer(uintptr(h)))))
}

// Style: modules cached in a package-level map by generated kernel wrappers.
var (
	kernelsMu sync.Mutex
	kernels   = map[string]C.hipFunction_t{}
	modules   = map[string]C.hipModule_t{}
)

func saxpyKernel(path, name *C.char) (C.hipFunction_t, error) {
	kernelsMu.Lock()
	defer kernelsMu.Unlock()
	if f, ok := kernels["saxpy"]; ok {
		return f, nil
	}
	var m C.hipModule_t
	if err := check(C.hipModuleLoad(&m, path)); err != nil {
		return nil, err
	}
	modules["saxpy"] = m
	var f C.hipFunction_t
	if err := check(C.hipModuleGetFunction(&f, m, name)); err != nil {
		return nil, err
	}
	kernels["saxpy"] = f
	return f, nil
}

// Style: a Module type with a loaded flag, an Unload method and a finalizer.
type Module struct {
	h      C.hipModule_t
	loaded bool
}

func Open(path *C.char) (*Module, error) { // want Open:"returnsModule\\(result=0, status=1\\)"
	m := &Module{}
	if err := check(C.hipModuleLoad(&m.h, path)); err != nil {
		return nil, err
	}
	m.loaded = true
	runtime.SetFinalizer(m, (*Module).Unload)
	return m, nil
}

func (m *Module) Unload() { // want Unload:"unloads\\[-1\\]"
	if m.loaded {
		C.hipModuleUnload(m.h)
		m.loaded = false
	}
}

func (m *Module) Function(name *C.char) (C.hipFunction_t, error) { // want Function:"borrows\\[-1\\]"
	var f C.hipFunction_t
	err := check(C.hipModuleGetFunction(&f, m.h, name))
	return f, err
}

func useOpenLeak(path, name *C.char) error {
	m, err := Open(path) // want `module m loaded by Open is not unloaded on this return`
	if err != nil {
		return err
	}
	if _, err := m.Function(name); err != nil {
		return err
	}
	m.Unload()
	return nil
}

func useOpenBalanced(path, name *C.char) error {
	m, err := Open(path)
	if err != nil {
		return err
	}
	defer m.Unload()
	_, err = m.Function(name)
	return err
}

// Style: an interface over several runtimes. Calls through the interface
// are not followed: ownership is the implementation's business.
type Loader interface {
	Load(path string) (any, error)
	Unload(any) error
}

func viaInterface(l Loader, path string) error {
	mod, err := l.Load(path)
	if err != nil {
		return err
	}
	return l.Unload(mod)
}
