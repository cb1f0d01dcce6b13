// Package modules loads GPU code objects the way long-running services do.
// LoadAll leaks every module but the last (HL2001); LoadEach is its safe twin;
// LoadTwice unloads on the error path a second time (HL2002) and Unreached
// leaks in code no test reaches.
package modules

/*
#include <stdlib.h>
#include <hip/hip_runtime_api.h>
*/
import "C"

import (
	"fmt"
	"unsafe"
)

// ptx is a code object every NVIDIA driver can load: one empty kernel.
const ptx = ".version 7.0\n.target sm_50\n.address_size 64\n.visible .entry noop()\n{\n\tret;\n}\n"

func check(op string, r C.hipError_t) error {
	if r != C.hipSuccess {
		return fmt.Errorf("%s: error %d", op, int(r))
	}
	return nil
}

func image() unsafe.Pointer { return unsafe.Pointer(C.CString(ptx)) }

// LoadAll loads the code object n times into one handle and unloads the last.
func LoadAll(n int) error {
	img := image()
	defer C.free(img)
	var m C.hipModule_t
	for i := 0; i < n; i++ {
		if err := check("hipModuleLoadData", C.hipModuleLoadData(&m, img)); err != nil {
			return err
		}
	}
	return check("hipModuleUnload", C.hipModuleUnload(m))
}

// LoadEach unloads each module in the iteration that loaded it.
func LoadEach(n int) error {
	img := image()
	defer C.free(img)
	for i := 0; i < n; i++ {
		var m C.hipModule_t
		if err := check("hipModuleLoadData", C.hipModuleLoadData(&m, img)); err != nil {
			return err
		}
		if err := check("hipModuleUnload", C.hipModuleUnload(m)); err != nil {
			return err
		}
	}
	return nil
}

// LoadTwice looks a kernel up and unloads the module twice when the name is missing.
func LoadTwice(name string) error {
	img := image()
	defer C.free(img)
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))
	var m C.hipModule_t
	if err := check("hipModuleLoadData", C.hipModuleLoadData(&m, img)); err != nil {
		return err
	}
	var f C.hipFunction_t
	err := check("hipModuleGetFunction", C.hipModuleGetFunction(&f, m, cname))
	C.hipModuleUnload(m)
	if err != nil {
		C.hipModuleUnload(m)
		return err
	}
	return nil
}

// Unreached leaks a module, but no test calls it.
func Unreached() error {
	img := image()
	defer C.free(img)
	var m C.hipModule_t
	return check("hipModuleLoadData", C.hipModuleLoadData(&m, img))
}
