// Package moduleslib is a module wrapper in another package: the
// cross-package rows of the module-balance column use it.
package moduleslib

// #cgo CFLAGS: -I${SRCDIR}/../../../include
// #include <hip/hip_runtime_api.h>
import "C"

import (
	"fmt"
	"unsafe"
)

// Module owns one loaded code object.
type Module struct{ m C.hipModule_t }

func check(r C.hipError_t) error {
	if r != C.hipSuccess {
		return fmt.Errorf("hip error %d", int(r))
	}
	return nil
}

// Load loads a code object image.
func Load(image []byte) (*Module, error) { // want Load:"returnsModule\\(result=0, status=1\\)"
	var m C.hipModule_t
	if err := check(C.hipModuleLoadData(&m, unsafe.Pointer(&image[0]))); err != nil {
		return nil, err
	}
	return &Module{m: m}, nil
}

// Close unloads the module.
func (md *Module) Close() error { return check(C.hipModuleUnload(md.m)) } // want Close:"unloads\\[\\-1\\]"

// Function reports whether the kernel is in the module.
func (md *Module) Function(name string) error { // want Function:"borrows\\[\\-1\\] uses\\[\\-1\\]"
	var f C.hipFunction_t
	cname := C.CString(name)
	return check(C.hipModuleGetFunction(&f, md.m, cname))
}
