package realshapes

// #include <cuda.h>
import "C"

import "unsafe"

// Launcher owns a module and the kernel taken from it, the way a library
// hands out one value per kernel.
type Launcher struct {
	mod  Module
	fn   Function
	name string
	grid [3]uint32
}

func NewLauncher(img unsafe.Pointer, name *C.char) (*Launcher, error) { // want NewLauncher:"returnsModule\\(result=0, status=1\\)"
	mod, err := LoadData(img)
	if err != nil {
		return nil, err
	}
	return &Launcher{mod: mod, fn: mod.GetFunction(name), name: C.GoString(name)}, nil
}

func (k *Launcher) Close() error { // want Close:"unloads\\[-1\\]"
	return k.mod.Unload()
}

func launchFunction(fn Function, grid [3]uint32) error { return nil }

// Hazard: the kernel's fields that cannot hold its module are read (the
// kernel, the grid, the name); the module is never unloaded.
func launchOnce(img unsafe.Pointer, name *C.char) error {
	k, err := NewLauncher(img, name) // want `module k loaded by NewLauncher is not unloaded on this return`
	if err != nil {
		return err
	}
	if k.grid[0] == 0 {
		k.grid[0] = 1
	}
	println(k.name)
	return launchFunction(k.fn, k.grid)
}

// Safe twin: the same reads, and the kernel closed when the function
// returns.
func launchOnceClosed(img unsafe.Pointer, name *C.char) error {
	k, err := NewLauncher(img, name)
	if err != nil {
		return err
	}
	defer k.Close()
	if k.grid[0] == 0 {
		k.grid[0] = 1
	}
	println(k.name)
	return launchFunction(k.fn, k.grid)
}

// Safe: the field that holds the module is handed on to the caller.
func kernelModule(img unsafe.Pointer, name *C.char) (Module, error) {
	k, err := NewLauncher(img, name)
	if err != nil {
		return 0, err
	}
	m := k.mod
	return m, nil
}

// closers holds what releases a kernel: a field that can carry anything.
type closers struct {
	release func() error
}

// Safe: a method value of the kernel is kept by the caller's value.
func kernelRelease(img unsafe.Pointer, name *C.char) (closers, error) {
	k, err := NewLauncher(img, name)
	if err != nil {
		return closers{}, err
	}
	return closers{release: k.Close}, nil
}
