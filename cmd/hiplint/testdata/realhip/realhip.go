// Package realhip includes Debian's real HIP header (libamdhip64-dev), not
// hiplint's fixture declarations.
package realhip

// #cgo CFLAGS: -D__HIP_PLATFORM_AMD__
// #include <hip/hip_runtime_api.h>
// #include <stdlib.h>
import "C"

import (
	"fmt"
	"unsafe"
)

func check(r C.hipError_t) error {
	if r != C.hipSuccess {
		return fmt.Errorf("hip: %s", C.GoString(C.hipGetErrorString(r)))
	}
	return nil
}

func Kernel(path, name string) (C.hipFunction_t, error) {
	cpath := C.CString(path)
	defer C.free(unsafe.Pointer(cpath))
	var m C.hipModule_t
	if err := check(C.hipModuleLoad(&m, cpath)); err != nil { // hazard: HL2001
		return nil, err
	}
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))
	var f C.hipFunction_t
	if err := check(C.hipModuleGetFunction(&f, m, cname)); err != nil {
		return nil, err
	}
	return f, nil
}

func Balanced(path string) error {
	cpath := C.CString(path)
	defer C.free(unsafe.Pointer(cpath))
	var m C.hipModule_t
	if err := check(C.hipModuleLoad(&m, cpath)); err != nil {
		return err
	}
	defer C.hipModuleUnload(m)
	return nil
}

func Twice(path *C.char) {
	var m C.hipModule_t
	if C.hipModuleLoad(&m, path) != C.hipSuccess {
		return
	}
	C.hipModuleUnload(m)
	C.hipModuleUnload(m) // hazard: HL2002
}
