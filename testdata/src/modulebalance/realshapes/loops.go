package realshapes

// #include <cuda.h>
import "C"

import "unsafe"

// Safe: Go 1.22 gives each iteration its own mod, and each deferred closure
// unloads the module of its own iteration.
func perIterationDefers(imgs []unsafe.Pointer) error {
	for _, img := range imgs {
		mod, err := LoadData(img)
		if err != nil {
			return err
		}
		defer func() { mod.Unload() }()
	}
	return nil
}

// Safe: the same with the C handle declared in the loop body.
func perIterationHandles(imgs []unsafe.Pointer) error {
	for _, img := range imgs {
		var m C.CUmodule
		if err := check(C.cuModuleLoadData(&m, img)); err != nil {
			return err
		}
		defer func() { C.cuModuleUnload(m) }()
	}
	return nil
}

// Hazard: one variable declared outside the loop, one deferred closure that
// reads it at exit: only the last module is unloaded.
func sharedVariableOneDefer(imgs []unsafe.Pointer) error {
	var m C.CUmodule
	defer func() {
		if m != nil {
			C.cuModuleUnload(m)
		}
	}()
	for _, img := range imgs {
		if err := check(C.cuModuleLoadData(&m, img)); err != nil { // want `module m loaded by cuModuleLoadData on every iteration is never unloaded before the next load`
			return err
		}
	}
	return nil
}

// Hazard: the same through the constructor, reassigning the outer variable.
func sharedNewtypeOneDefer(imgs []unsafe.Pointer) error {
	var mod Module
	var err error
	defer func() { mod.Unload() }()
	for _, img := range imgs {
		mod, err = LoadData(img) // want `module mod loaded by LoadData on every iteration is never unloaded before the next load`
		if err != nil {
			return err
		}
	}
	return nil
}

// Safe: a single load into a variable whose deferred closure was set up
// before the load.
func deferBeforeSingleLoad(img unsafe.Pointer) error {
	var m C.CUmodule
	defer func() {
		if m != nil {
			C.cuModuleUnload(m)
		}
	}()
	return check(C.cuModuleLoadData(&m, img))
}

// Kernel owns a module.
type Kernel struct{ mod C.CUmodule }

// Safe: the deferred cleanup is disarmed by clearing the variable once the
// module has been handed to the result.
func disarmedCleanup(img unsafe.Pointer, fail func() error) (*Kernel, error) {
	var m C.CUmodule
	if err := check(C.cuModuleLoadData(&m, img)); err != nil {
		return nil, err
	}
	defer func() {
		if m != nil {
			C.cuModuleUnload(m)
		}
	}()
	if err := fail(); err != nil {
		return nil, err
	}
	k := &Kernel{mod: m}
	m = nil
	return k, nil
}
