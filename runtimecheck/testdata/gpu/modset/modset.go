// Package modset loads modules through wrappers that keep them in a struct's
// slice. LoadPool returns on the first bad image and drops the pool with the
// modules loaded so far: they leak. LoadRegistry closes what it loaded first.
package modset

/*
#include <stdlib.h>
#include <hip/hip_runtime_api.h>
*/
import "C"

import (
	"fmt"
	"unsafe"
)

// PTX is a module with one empty kernel; it loads on any NVIDIA GPU.
const PTX = ".version 7.0\n.target sm_50\n.address_size 64\n.visible .entry nop()\n{\n\tret;\n}\n"

// pool keeps the modules it loaded; close unloads them.
type pool struct{ mods []C.hipModule_t }

func (p *pool) add(image string) error {
	img := C.CString(image)
	defer C.free(unsafe.Pointer(img))
	var m C.hipModule_t
	if r := C.hipModuleLoadData(&m, unsafe.Pointer(img)); r != C.hipSuccess {
		return fmt.Errorf("hipModuleLoadData: error %d", int(r))
	}
	p.mods = append(p.mods, m)
	return nil
}

func (p *pool) close() {
	for _, m := range p.mods {
		C.hipModuleUnload(m)
	}
	p.mods = nil
}

// LoadPool loads every image; on an error it drops the pool.
func LoadPool(images []string) (int, error) {
	C.hipSetDevice(0)
	p := &pool{}
	for _, image := range images {
		if err := p.add(image); err != nil {
			return 0, err
		}
	}
	defer p.close()
	return len(p.mods), nil
}

// registry is pool's twin, with its own loading wrapper.
type registry struct{ mods []C.hipModule_t }

func (r *registry) add(image string) error {
	img := C.CString(image)
	defer C.free(unsafe.Pointer(img))
	var m C.hipModule_t
	if res := C.hipModuleLoadData(&m, unsafe.Pointer(img)); res != C.hipSuccess {
		return fmt.Errorf("hipModuleLoadData: error %d", int(res))
	}
	r.mods = append(r.mods, m)
	return nil
}

func (r *registry) close() {
	for _, m := range r.mods {
		C.hipModuleUnload(m)
	}
	r.mods = nil
}

// LoadRegistry loads every image and closes the registry on every path.
func LoadRegistry(images []string) (int, error) {
	C.hipSetDevice(0)
	r := &registry{}
	defer r.close()
	for _, image := range images {
		if err := r.add(image); err != nil {
			return 0, err
		}
	}
	return len(r.mods), nil
}
