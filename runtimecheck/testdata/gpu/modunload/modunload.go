// Package modunload launches kernels whose module may already be unloaded
// (HL2003), in the two shapes that hid the unload from confirm: a deferred
// closure, and a module cache that evicts. Lookup unloads its module in a
// deferred closure before its caller launches the function it returned;
// Borrow keeps the module until the caller's launch is done. A cache of one
// module evicts (unloads) the first once the second is loaded: LaunchEvicted
// launches the first kernel after that, LaunchBeforeEvict before it.
package modunload

/*
#include <stdlib.h>
#include <hip/hip_runtime_api.h>
*/
import "C"

import (
	"fmt"
	"unsafe"
)

// PTX holds one empty kernel, nop; it loads on any NVIDIA GPU.
const PTX = ".version 7.0\n.target sm_50\n.address_size 64\n.visible .entry nop()\n{\n\tret;\n}\n"

func status(op string, r C.hipError_t) error {
	if r != C.hipSuccess {
		return fmt.Errorf("%s: error %d", op, int(r))
	}
	return nil
}

func load(image string) (C.hipModule_t, C.hipFunction_t, error) {
	img := C.CString(image)
	defer C.free(unsafe.Pointer(img))
	name := C.CString("nop")
	defer C.free(unsafe.Pointer(name))
	var m C.hipModule_t
	if err := status("hipModuleLoadData", C.hipModuleLoadData(&m, unsafe.Pointer(img))); err != nil {
		return m, nil, err
	}
	var f C.hipFunction_t
	if err := status("hipModuleGetFunction", C.hipModuleGetFunction(&f, m, name)); err != nil {
		C.hipModuleUnload(m)
		return m, nil, err
	}
	return m, f, nil
}

// launched checks a launch's status and waits for the kernel. Each caller
// launches on its own line, so that each launch is its own traced site.
func launched(r C.hipError_t) error {
	if err := status("hipModuleLaunchKernel", r); err != nil {
		return err
	}
	return status("hipDeviceSynchronize", C.hipDeviceSynchronize())
}

// Lookup returns the kernel, but its deferred closure unloads the module
// when Lookup returns.
func Lookup() (C.hipFunction_t, error) {
	C.hipSetDevice(0)
	m, f, err := load(PTX)
	if err != nil {
		return nil, err
	}
	defer func() {
		C.hipModuleUnload(m)
	}()
	return f, nil
}

// LaunchLookedUp launches what Lookup returned: its module is gone.
func LaunchLookedUp() error {
	f, err := Lookup()
	if err != nil {
		return err
	}
	return launched(C.hipModuleLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, nil, nil, nil))
}

// Borrow returns the kernel and a release function that unloads its module.
func Borrow() (C.hipFunction_t, func(), error) {
	C.hipSetDevice(0)
	m, f, err := load(PTX)
	if err != nil {
		return nil, nil, err
	}
	return f, func() { C.hipModuleUnload(m) }, nil
}

// LaunchBorrowed launches before the deferred release unloads the module.
func LaunchBorrowed() error {
	f, release, err := Borrow()
	if err != nil {
		return err
	}
	defer release()
	return launched(C.hipModuleLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, nil, nil, nil))
}

// cache keeps at most max modules, by image name, and unloads the oldest
// when it is full.
type cache struct {
	max   int
	names []string
	mods  map[string]C.hipModule_t
	funcs map[string]C.hipFunction_t
}

func newCache(max int) *cache {
	return &cache{max: max, mods: map[string]C.hipModule_t{}, funcs: map[string]C.hipFunction_t{}}
}

// get loads the image, then evicts the oldest modules over max. (Loading
// first also keeps the new module from reusing the evicted one's handle, so
// that a stale function handle cannot reach the new module's kernel.)
func (c *cache) get(name, image string) (C.hipFunction_t, error) {
	if f, ok := c.funcs[name]; ok {
		return f, nil
	}
	m, f, err := load(image)
	if err != nil {
		return nil, err
	}
	c.names = append(c.names, name)
	c.mods[name], c.funcs[name] = m, f
	for len(c.names) > c.max {
		c.evict(c.names[0])
	}
	return f, nil
}

func (c *cache) evict(name string) {
	C.hipModuleUnload(c.mods[name])
	delete(c.mods, name)
	delete(c.funcs, name)
	c.names = c.names[1:]
}

func (c *cache) close() {
	for len(c.names) > 0 {
		c.evict(c.names[0])
	}
}

// LaunchEvicted gets kernel a, then kernel b, which evicts a's module, then
// launches a.
func LaunchEvicted() error {
	C.hipSetDevice(0)
	c := newCache(1)
	defer c.close()
	a, err := c.get("a", PTX)
	if err != nil {
		return err
	}
	if _, err := c.get("b", PTX); err != nil {
		return err
	}
	return launched(C.hipModuleLaunchKernel(a, 1, 1, 1, 1, 1, 1, 0, nil, nil, nil))
}

// LaunchBeforeEvict launches kernel a before getting b.
func LaunchBeforeEvict() error {
	C.hipSetDevice(0)
	c := newCache(1)
	defer c.close()
	a, err := c.get("a", PTX)
	if err != nil {
		return err
	}
	if err := launched(C.hipModuleLaunchKernel(a, 1, 1, 1, 1, 1, 1, 0, nil, nil, nil)); err != nil {
		return err
	}
	b, err := c.get("b", PTX)
	if err != nil {
		return err
	}
	return launched(C.hipModuleLaunchKernel(b, 1, 1, 1, 1, 1, 1, 0, nil, nil, nil))
}
