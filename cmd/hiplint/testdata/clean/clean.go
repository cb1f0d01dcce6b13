// Package clean uses the HIP module API correctly: hiplint reports nothing.
package clean

/*
#cgo CFLAGS: -I${SRCDIR}/../../../../testdata/include
#include <hip/hip_runtime_api.h>
*/
import "C"

import (
	"errors"
	"unsafe"
)

var errHIP = errors.New("hip call failed")

func check(r C.hipError_t) error {
	if r != C.hipSuccess {
		return errHIP
	}
	return nil
}

// Launch loads image, launches its kernel name once and unloads the module.
func Launch(image unsafe.Pointer, name *C.char) error {
	var m C.hipModule_t
	if err := check(C.hipModuleLoadData(&m, image)); err != nil {
		return err
	}
	defer C.hipModuleUnload(m)
	var f C.hipFunction_t
	if err := check(C.hipModuleGetFunction(&f, m, name)); err != nil {
		return err
	}
	return check(C.hipModuleLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, nil, nil, nil))
}
