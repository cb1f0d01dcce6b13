// Package leak loads a module and never unloads it. The integration tests
// copy it into a module of its own, with the fixture header under include/,
// and run hiplint -diff and -fix on the copy: the fix adds the deferred
// unload right after the load's error check (leak.go.golden).
package leak

/*
#cgo CFLAGS: -I${SRCDIR}/include
#include <hip/hip_runtime_api.h>
*/
import "C"

import (
	"fmt"
	"unsafe"
)

func check(r C.hipError_t) error {
	if r != C.hipSuccess {
		return fmt.Errorf("hip error %d", int(r))
	}
	return nil
}

// Launch loads image and launches its kernel name once.
func Launch(image unsafe.Pointer, name *C.char) error {
	var m C.hipModule_t
	if err := check(C.hipModuleLoadData(&m, image)); err != nil {
		return err
	}
	var f C.hipFunction_t
	if err := check(C.hipModuleGetFunction(&f, m, name)); err != nil {
		return err
	}
	return check(C.hipModuleLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, nil, nil, nil))
}
