// Package modelreg keeps inference models loaded per name: each model is a
// module with a forward kernel, reference counted so that a hot reload can
// swap in a new version while requests still run on the old one; the old
// module is unloaded when its last reference is released.
package modelreg

// #cgo CFLAGS: -I${SRCDIR}/../../../../include
// #include <hip/hip_runtime_api.h>
// #include <stdlib.h>
import "C"

import (
	"errors"
	"fmt"
	"sync/atomic"
	"unsafe"
)

// ErrTooLarge is returned for a model whose parameters do not fit.
var ErrTooLarge = errors.New("modelreg: model too large")

func hipErr(op string, r C.hipError_t) error {
	if r == C.hipSuccess {
		return nil
	}
	return fmt.Errorf("modelreg: %s: %w", op, errors.New(fmt.Sprint("hip error ", int(r))))
}

// Model is one loaded version of a model.
type Model struct {
	Name    string
	Version int
	mod     C.hipModule_t
	forward C.hipFunction_t
	params  C.hipDeviceptr_t
	refs    atomic.Int32
	retired atomic.Bool
}

// newModel loads image and looks up its forward kernel and its parameter
// block. Hazard: when the parameter block is too large, the module leaks.
func newModel(name string, version int, image []byte, maxBytes int) (*Model, error) {
	var m C.hipModule_t
	if err := hipErr("hipModuleLoadData", C.hipModuleLoadData(&m, unsafe.Pointer(&image[0]))); err != nil { // want `module m loaded by hipModuleLoadData is not unloaded on this return`
		return nil, err
	}
	cname := C.CString("forward")
	defer C.free(unsafe.Pointer(cname))
	var fn C.hipFunction_t
	if err := hipErr("hipModuleGetFunction", C.hipModuleGetFunction(&fn, m, cname)); err != nil {
		C.hipModuleUnload(m)
		return nil, err
	}
	gname := C.CString("params")
	defer C.free(unsafe.Pointer(gname))
	var dptr C.hipDeviceptr_t
	var size C.size_t
	if err := hipErr("hipModuleGetGlobal", C.hipModuleGetGlobal(&dptr, &size, m, gname)); err != nil {
		C.hipModuleUnload(m)
		return nil, err
	}
	if int(size) > maxBytes {
		return nil, ErrTooLarge
	}
	md := &Model{Name: name, Version: version, mod: m, forward: fn, params: dptr}
	md.refs.Store(1) // the registry's reference
	return md, nil
}

// Forward runs the model on input, writing output.
func (md *Model) Forward( // want Forward:"borrows\\[-1\\] uses\\[-1\\]$"
	input, output unsafe.Pointer, n int) error {
	return launchForward(md.forward, md.params, input, output, n)
}

// launchForward launches a forward kernel.
func launchForward(fn C.hipFunction_t, params C.hipDeviceptr_t, input, output unsafe.Pointer, n int) error { // want launchForward:"launches\\[0\\]"
	args := []unsafe.Pointer{unsafe.Pointer(&params), unsafe.Pointer(&input), unsafe.Pointer(&output)}
	blocks := C.uint((n + 255) / 256)
	return hipErr("hipModuleLaunchKernel", C.hipModuleLaunchKernel(fn, blocks, 1, 1, 256, 1, 1, 0, nil, &args[0], nil))
}

// Release drops a reference; the last one unloads a retired model.
func (md *Model) Release() { // want Release:"unloads\\[-1\\]"
	if md.refs.Add(-1) == 0 && md.retired.Load() {
		C.hipModuleUnload(md.mod)
	}
}

// retire marks the model replaced and drops the registry's reference.
func (md *Model) retire() { // want retire:"unloads\\[-1\\]"
	md.retired.Store(true)
	md.Release()
}
