package realhip

// #include <hip/hip_runtime_api.h>
// #include <stdlib.h>
import "C"

import "unsafe"

// Status is the bindings' Go type for hipError_t.
type Status int

const OK Status = 0

// Code is a loaded module as a uintptr; its loaders panic on failure.
type Code uintptr

// Kernel is a function of a Code.
type Kernel2 uintptr

func CodeLoadData(image []byte) Code { // want CodeLoadData:"returnsModule\\(result=0, status=-1\\)"
	var mod C.hipModule_t
	st := Status(C.hipModuleLoadData(&mod, unsafe.Pointer(&image[0])))
	if st != OK {
		panic(st)
	}
	return Code(uintptr(unsafe.Pointer(mod)))
}

func CodeGetKernel(code Code, name string) Kernel2 { // want CodeGetKernel:"borrows\\[0\\]"
	var fn C.hipFunction_t
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))
	st := Status(C.hipModuleGetFunction(&fn, C.hipModule_t(unsafe.Pointer(uintptr(code))), cname))
	if st != OK {
		panic(st)
	}
	return Kernel2(uintptr(unsafe.Pointer(fn)))
}

func (c Code) Kernel(name string) Kernel2 { // want Kernel:"borrows\\[-1\\]"
	return CodeGetKernel(c, name)
}

func CodeUnload(code Code) { // want CodeUnload:"unloads\\[0\\]"
	if Status(C.hipModuleUnload(C.hipModule_t(unsafe.Pointer(uintptr(code))))) != OK {
		panic("unload")
	}
}

// Hazard: the chained call keeps the kernel and loses its module.
func chainedKernel(image []byte) Kernel2 {
	return CodeLoadData(image).Kernel("saxpy") // want `the module CodeLoadData returns is discarded`
}

// Safe twin: the module is kept and unloaded when done.
func keptKernel(image []byte, run func(Kernel2)) {
	code := CodeLoadData(image)
	defer CodeUnload(code)
	run(code.Kernel("saxpy"))
}

// Safe: the status converted to the Go type in the condition.
func convertedStatus(image []byte) error {
	var mod C.hipModule_t
	res := C.hipModuleLoadData(&mod, unsafe.Pointer(&image[0]))
	if Status(res) != OK {
		return nil
	}
	C.hipModuleUnload(mod)
	return nil
}
