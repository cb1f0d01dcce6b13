// Package modules is the module-balance column of the construct matrix
// (docs/coverage.md): each construct's hazard and its safe twin.
package modules

// #cgo CFLAGS: -I${SRCDIR}/../../../include
// #include <hip/hip_runtime_api.h>
// #include <stdlib.h>
import "C"

import (
	"errors"
	"fmt"
	"unsafe"
)

var errBad = errors.New("bad")

// Module owns one loaded code object.
type Module struct{ m C.hipModule_t }

func check(r C.hipError_t) error {
	if r != C.hipSuccess {
		return fmt.Errorf("hip error %d", int(r))
	}
	return nil
}

// Load loads the code object at path.
func Load(path *C.char) (*Module, error) { // want Load:"returnsModule\\(result=0, status=1\\)"
	var m C.hipModule_t
	if err := check(C.hipModuleLoad(&m, path)); err != nil {
		return nil, err
	}
	return &Module{m: m}, nil
}

// Open loads the code object file at path.
func Open(path string) (*Module, error) { // want Open:"returnsModule\\(result=0, status=1\\)"
	cs := C.CString(path)
	defer C.free(unsafe.Pointer(cs))
	return Load(cs)
}

// Close unloads the module.
func (md *Module) Close() error { return check(C.hipModuleUnload(md.m)) } // want Close:"unloads\\[\\-1\\]"

// Function looks a kernel up in the module.
func (md *Module) Function(name *C.char) (C.hipFunction_t, error) { // want Function:"borrows\\[\\-1\\] uses\\[\\-1\\]"
	var f C.hipFunction_t
	err := check(C.hipModuleGetFunction(&f, md.m, name))
	return f, err
}

// Lookup reports whether the named kernel is in the module.
func (md *Module) Lookup(name string) error { // want Lookup:"borrows\\[\\-1\\] uses\\[\\-1\\]"
	cs := C.CString(name)
	defer C.free(unsafe.Pointer(cs))
	_, err := md.Function(cs)
	return err
}

func validate(md *Module) error { return nil } // want validate:"borrows\\[0\\]"

func launch(f C.hipFunction_t) error { // want launch:"launches\\[0\\]"
	return check(C.hipModuleLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, nil, nil, nil))
}
