// Package realshapes holds module-balance shapes taken from the way GPU
// libraries are written (issue 19), each hazard with a safe twin.
package realshapes

// #cgo CFLAGS: -I${SRCDIR}/../../../include
// #include <cuda.h>
import "C"

import (
	"errors"
	"fmt"
	"unsafe"
)

func check(r C.CUresult) error {
	if r != C.CUDA_SUCCESS {
		return fmt.Errorf("cuda error %d", int(r))
	}
	return nil
}

type cuError struct {
	op  string
	res C.CUresult
}

func (e *cuError) Error() string { return fmt.Sprintf("%s: %d", e.op, int(e.res)) }

// newErr builds an error from a status, nil on success.
func newErr(op string, res C.CUresult) error {
	if res == C.CUDA_SUCCESS {
		return nil
	}
	return &cuError{op, res}
}

// The status is kept in a variable and checked through a helper: the
// return on failure leaks nothing, the module is unloaded on success.
func statusThroughCheck(img unsafe.Pointer) error {
	var m C.CUmodule
	res := C.cuModuleLoadData(&m, img)
	if err := check(res); err != nil {
		return err
	}
	defer C.cuModuleUnload(m)
	return nil
}

// The same with the two-argument helper.
func statusThroughNewErr(img unsafe.Pointer) error {
	var m C.CUmodule
	res := C.cuModuleLoadData(&m, img)
	if err := newErr("cuModuleLoadData", res); err != nil {
		return err
	}
	C.cuModuleUnload(m)
	return nil
}

// The helper's result compared in the condition itself.
func statusHelperInCondition(img unsafe.Pointer) error {
	var m C.CUmodule
	res := C.cuModuleLoadData(&m, img)
	if check(res) != nil {
		return errors.New("load")
	}
	return check(C.cuModuleUnload(m))
}

// Hazard twin: checked through the helper, then leaked on a later return.
func statusThroughCheckLeak(img unsafe.Pointer, name *C.char) (C.CUfunction, error) { // want statusThroughCheckLeak:"returnsFunction\\(result=0, unloaded\\)"
	var m C.CUmodule
	res := C.cuModuleLoadData(&m, img) // want `module m loaded by cuModuleLoadData is not unloaded on this return`
	if err := check(res); err != nil {
		return nil, err
	}
	var f C.CUfunction
	if err := newErr("cuModuleGetFunction", C.cuModuleGetFunction(&f, m, name)); err != nil {
		return nil, err
	}
	C.cuModuleUnload(m)
	return f, nil
}
