// Package safe holds the look-alikes that real Go GPU code uses and that must
// stay silent.
package safe

// #cgo CFLAGS: -I${SRCDIR}/../../../include
// #include <hip/hip_runtime_api.h>
import "C"

import (
	"errors"
	"fmt"
	"runtime"
	"sync"
	"unsafe"
)

func check(r C.hipError_t) error {
	if r != C.hipSuccess {
		return fmt.Errorf("hip error %d", int(r))
	}
	return nil
}

func must(r C.hipError_t) {
	if r != C.hipSuccess {
		panic(fmt.Sprintf("hip error %d", int(r)))
	}
}

// defer after the error check.
func deferAfterCheck(path, name *C.char) (err error) {
	var m C.hipModule_t
	if err := check(C.hipModuleLoad(&m, path)); err != nil {
		return err
	}
	defer C.hipModuleUnload(m)
	var f C.hipFunction_t
	if err := check(C.hipModuleGetFunction(&f, m, name)); err != nil {
		return err
	}
	return check(C.hipModuleLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, nil, nil, nil))
}

// A deferred closure that checks the unload's status.
func deferredClosure(path *C.char) (err error) {
	var m C.hipModule_t
	if r := C.hipModuleLoad(&m, path); r != C.hipSuccess {
		return errors.New("load")
	}
	defer func() {
		if r := C.hipModuleUnload(m); r != C.hipSuccess && err == nil {
			err = errors.New("unload")
		}
	}()
	return nil
}

// Panicking wrapper: after must, the load succeeded.
func mustLoad(path *C.char) {
	var m C.hipModule_t
	must(C.hipModuleLoad(&m, path))
	defer must(C.hipModuleUnload(m))
}

// Unloaded on every branch.
func everyBranch(path *C.char, early bool) error {
	var m C.hipModule_t
	if C.hipModuleLoad(&m, path) != C.hipSuccess {
		return errors.New("load")
	}
	if early {
		C.hipModuleUnload(m)
		return nil
	}
	C.hipModuleUnload(m)
	return nil
}

// Unloaded each iteration.
func loopUnloads(images []unsafe.Pointer) error {
	for _, img := range images {
		var m C.hipModule_t
		if err := check(C.hipModuleLoadData(&m, img)); err != nil {
			return err
		}
		C.hipModuleUnload(m)
	}
	return nil
}

// Returned to the caller: the caller owns it.
func loadModule(path *C.char) (C.hipModule_t, error) { // want loadModule:"returnsModule\\(result=0, status=1\\)"
	var m C.hipModule_t
	if err := check(C.hipModuleLoad(&m, path)); err != nil {
		return nil, err
	}
	return m, nil
}

func unloadModule(m C.hipModule_t) error { return check(C.hipModuleUnload(m)) } // want unloadModule:"unloads\\[0\\]"

// Wrappers on both sides, balanced.
func useWrappers(path *C.char) error {
	m, err := loadModule(path)
	if err != nil {
		return err
	}
	defer unloadModule(m)
	return nil
}

// Package-level cache: kept for the life of the process.
var (
	cacheMu sync.Mutex
	cache   = map[string]C.hipModule_t{}
	global  C.hipModule_t
)

func cached(name string, path *C.char) (C.hipModule_t, error) {
	cacheMu.Lock()
	defer cacheMu.Unlock()
	if m, ok := cache[name]; ok {
		return m, nil
	}
	var m C.hipModule_t
	if err := check(C.hipModuleLoad(&m, path)); err != nil {
		return nil, err
	}
	cache[name] = m
	return m, nil
}

func loadGlobal(path *C.char) error {
	return check(C.hipModuleLoad(&global, path))
}

// A wrapper type with a loaded flag and an Unload method.
type Module struct {
	h      C.hipModule_t
	loaded bool
}

func Load(path *C.char) (*Module, error) { // want Load:"returnsModule\\(result=0, status=1\\)"
	m := &Module{}
	if err := check(C.hipModuleLoad(&m.h, path)); err != nil {
		return nil, err
	}
	m.loaded = true
	return m, nil
}

func (m *Module) Unload() error { // want Unload:"unloads\\[-1\\]"
	if !m.loaded {
		return nil
	}
	m.loaded = false
	return check(C.hipModuleUnload(m.h))
}

func useModuleType(path *C.char) error {
	m, err := Load(path)
	if err != nil {
		return err
	}
	defer m.Unload()
	return nil
}

// A Kernel with a Close method and a finalizer.
type Kernel struct {
	mod C.hipModule_t
	fn  C.hipFunction_t
}

func NewKernel(path, name *C.char) (*Kernel, error) { // want NewKernel:"returnsModule\\(result=0, status=1\\)"
	k := &Kernel{}
	if err := check(C.hipModuleLoad(&k.mod, path)); err != nil {
		return nil, err
	}
	if err := check(C.hipModuleGetFunction(&k.fn, k.mod, name)); err != nil {
		C.hipModuleUnload(k.mod)
		return nil, err
	}
	runtime.SetFinalizer(k, func(k *Kernel) { k.Close() })
	return k, nil
}

func (k *Kernel) Close() { // want Close:"unloads\\[-1\\]"
	C.hipModuleUnload(k.mod)
}

func useKernel(path, name *C.char) error {
	k, err := NewKernel(path, name)
	if err != nil {
		return err
	}
	defer k.Close()
	return nil
}

// Loading through a caller's pointer: the caller owns the module.
func loadInto(m *C.hipModule_t, path *C.char) error {
	return check(C.hipModuleLoad(m, path))
}

// Unloading only a module that loaded, then a reload into the same handle.
func reloadAfterUnload(a, b *C.char) {
	var m C.hipModule_t
	if C.hipModuleLoad(&m, a) != C.hipSuccess {
		return
	}
	C.hipModuleUnload(m)
	if C.hipModuleLoad(&m, b) != C.hipSuccess {
		return
	}
	C.hipModuleUnload(m)
}

// Handed to a goroutine that owns it.
func handOff(path *C.char, done chan<- C.hipModule_t) {
	var m C.hipModule_t
	if C.hipModuleLoad(&m, path) != C.hipSuccess {
		return
	}
	done <- m
}

// Exits the process: nothing to unload.
func fatal(path *C.char) {
	var m C.hipModule_t
	if C.hipModuleLoad(&m, path) != C.hipSuccess {
		panic("load")
	}
	defer C.hipModuleUnload(m)
}
