// Package reload swaps GPU code objects at run time, the way long-running
// services pick up retuned kernels without a restart.
//
// It is one of hiplint's example programs: WarmUp loads every code object
// into one handle and unloads only the last (HL2001), and Run unloads its
// module twice on the error path (HL2002). WarmUpEach and RunChecked are the
// safe twins.
package reload

/*
#cgo CFLAGS: -I${SRCDIR}/../../testdata/include
#include <stdlib.h>
#include <hip/hip_runtime_api.h>
*/
import "C"

import (
	"fmt"
	"unsafe"
)

// status is a failed HIP call.
type status struct {
	op   string
	code C.hipError_t
}

func (s *status) Error() string {
	return fmt.Sprintf("%s: %s", s.op, C.GoString(C.hipGetErrorName(s.code)))
}

// check names the failed operation in the error it returns.
func check(op string, r C.hipError_t) error {
	if r != C.hipSuccess {
		return &status{op, r}
	}
	return nil
}

// cstrings converts paths for C; the caller frees them with freeAll.
func cstrings(paths []string) []*C.char {
	out := make([]*C.char, len(paths))
	for i, p := range paths {
		out[i] = C.CString(p)
	}
	return out
}

func freeAll(cs []*C.char) {
	for _, c := range cs {
		C.free(unsafe.Pointer(c))
	}
}

// WarmUp checks that every code object in paths loads. Each iteration loads
// into the same handle, so every module but the last is lost: a service that
// warms up on each reload signal grows by one module per file and signal.
func WarmUp(paths []string) error {
	cpaths := cstrings(paths)
	defer freeAll(cpaths)

	var m C.hipModule_t
	for _, p := range cpaths {
		if err := check("hipModuleLoad", C.hipModuleLoad(&m, p)); err != nil { // hazard: HL2001
			return err
		}
	}
	if m == nil {
		return nil
	}
	return check("hipModuleUnload", C.hipModuleUnload(m))
}

// WarmUpEach is WarmUp done right: each module is unloaded in the iteration
// that loaded it.
func WarmUpEach(paths []string) error {
	cpaths := cstrings(paths)
	defer freeAll(cpaths)

	for _, p := range cpaths {
		var m C.hipModule_t
		if err := check("hipModuleLoad", C.hipModuleLoad(&m, p)); err != nil {
			return err
		}
		if err := check("hipModuleUnload", C.hipModuleUnload(m)); err != nil {
			return err
		}
	}
	return nil
}

// launch starts f on a small grid on the null stream.
func launch(f C.hipFunction_t) error {
	return check("hipModuleLaunchKernel", C.hipModuleLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, nil, nil, nil))
}

// Run launches kernel name from the code object at path, then unloads the
// module. The cleanup added to the error branch unloads it a second time.
func Run(path, name string) error {
	cpath := C.CString(path)
	defer C.free(unsafe.Pointer(cpath))
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))

	var m C.hipModule_t
	if err := check("hipModuleLoad", C.hipModuleLoad(&m, cpath)); err != nil {
		return err
	}
	var f C.hipFunction_t
	err := check("hipModuleGetFunction", C.hipModuleGetFunction(&f, m, cname))
	if err == nil {
		err = launch(f)
	}
	C.hipModuleUnload(m)
	if err != nil {
		C.hipModuleUnload(m) // hazard: HL2002
		return err
	}
	return nil
}

// RunChecked is Run with one unload on every path.
func RunChecked(path, name string) error {
	cpath := C.CString(path)
	defer C.free(unsafe.Pointer(cpath))
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))

	var m C.hipModule_t
	if err := check("hipModuleLoad", C.hipModuleLoad(&m, cpath)); err != nil {
		return err
	}
	var f C.hipFunction_t
	err := check("hipModuleGetFunction", C.hipModuleGetFunction(&f, m, cname))
	if err == nil {
		err = launch(f)
	}
	if uerr := check("hipModuleUnload", C.hipModuleUnload(m)); err == nil {
		err = uerr
	}
	return err
}
