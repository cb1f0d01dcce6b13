// Package hipdrv is a driver-style binding: Module and Function types with
// methods, wrapped errors and a finalizer that unloads a module the program
// dropped.
package hipdrv

// #cgo CFLAGS: -I${SRCDIR}/../../../../include
// #include <hip/hip_runtime_api.h>
// #include <stdlib.h>
import "C"

import (
	"errors"
	"fmt"
	"runtime"
	"unsafe"
)

// ErrUnloaded is returned by methods of an unloaded module.
var ErrUnloaded = errors.New("hipdrv: module unloaded")

// Result is a HIP status.
type Result int

func (r Result) Error() string { return fmt.Sprintf("hip error %d", int(r)) }

func result(r C.hipError_t) error {
	if r == C.hipSuccess {
		return nil
	}
	return Result(r)
}

// Module is a loaded code object.
type Module struct {
	h C.hipModule_t
}

// LoadData loads a code object from memory. A module the program drops is
// unloaded by its finalizer.
func LoadData(image []byte) (*Module, error) {
	var h C.hipModule_t
	if err := result(C.hipModuleLoadData(&h, unsafe.Pointer(&image[0]))); err != nil {
		return nil, fmt.Errorf("hipdrv: LoadData: %w", err)
	}
	m := &Module{h: h}
	runtime.SetFinalizer(m, (*Module).Unload)
	return m, nil
}

// Unload unloads the module; a second call does nothing.
func (m *Module) Unload() error { // want Unload:"unloads\\[-1\\] idempotent\\[-1\\]"
	if m.h == nil {
		return nil
	}
	err := result(C.hipModuleUnload(m.h))
	m.h = nil
	runtime.SetFinalizer(m, nil)
	return err
}

// Function looks up a kernel of the module.
func (m *Module) Function(name string) (*Function, error) { // want Function:"borrows\\[-1\\] uses\\[-1\\]"
	if m.h == nil {
		return nil, ErrUnloaded
	}
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))
	var f C.hipFunction_t
	if err := result(C.hipModuleGetFunction(&f, m.h, cname)); err != nil {
		return nil, fmt.Errorf("hipdrv: Function %s: %w", name, err)
	}
	return &Function{h: f, name: name}, nil
}

// Function is a kernel; it is valid while its module is loaded.
type Function struct {
	h    C.hipFunction_t
	name string
}

// Dim3 is a grid or block size.
type Dim3 struct{ X, Y, Z uint32 }

// Launch launches the kernel.
func (f *Function) Launch(grid, block Dim3, shared uint32, args ...unsafe.Pointer) error { // want Launch:"launches\\[-1\\]"
	var params *unsafe.Pointer
	if len(args) > 0 {
		params = &args[0]
	}
	return result(C.hipModuleLaunchKernel(f.h, C.uint(grid.X), C.uint(grid.Y), C.uint(grid.Z),
		C.uint(block.X), C.uint(block.Y), C.uint(block.Z), C.uint(shared), nil, params, nil))
}
