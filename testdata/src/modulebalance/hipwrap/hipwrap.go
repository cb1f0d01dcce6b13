// Package hipwrap is a thin Go wrapper over HIP modules, the way Go GPU
// libraries are written; its summaries reach other packages as facts.
package hipwrap

// #cgo CFLAGS: -I${SRCDIR}/../../../include
// #include <hip/hip_runtime_api.h>
// #include <stdlib.h>
import "C"

import (
	"fmt"
	"unsafe"
)

type Error C.hipError_t

func (e Error) Error() string { return fmt.Sprintf("hip error %d", int(e)) }

func result(r C.hipError_t) error {
	if r != C.hipSuccess {
		return Error(r)
	}
	return nil
}

// Module owns one loaded code object.
type Module struct {
	h C.hipModule_t
}

// Function is a kernel borrowed from a Module.
type Function struct {
	f C.hipFunction_t
}

// Load loads a code object file.
func Load(path string) (*Module, error) { // want Load:"returnsModule\\(result=0, status=1\\)"
	cpath := C.CString(path)
	defer C.free(unsafe.Pointer(cpath))
	m := &Module{}
	if err := result(C.hipModuleLoad(&m.h, cpath)); err != nil {
		return nil, err
	}
	return m, nil
}

// Function looks a kernel up by name.
func (m *Module) Function(name string) (Function, error) { // want Function:"borrows\\[-1\\]"
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))
	var f Function
	err := result(C.hipModuleGetFunction(&f.f, m.h, cname))
	return f, err
}

// Unload releases the module.
func (m *Module) Unload() error { // want Unload:"unloads\\[-1\\]"
	return result(C.hipModuleUnload(m.h))
}

// Set keeps the modules its Add loads; Close unloads them.
type Set struct {
	mods []C.hipModule_t
}

func (s *Set) Add(path string) error { // want Add:"loadsInto\\[-1\\]\\(status=0\\) adds\\[-1\\]"
	cpath := C.CString(path)
	defer C.free(unsafe.Pointer(cpath))
	var m C.hipModule_t
	if err := result(C.hipModuleLoad(&m, cpath)); err != nil {
		return err
	}
	s.mods = append(s.mods, m)
	return nil
}

func (s *Set) Close() { // want Close:"unloads\\[-1\\]"
	for _, m := range s.mods {
		C.hipModuleUnload(m)
	}
	s.mods = nil
}
