// Package cudatwins checks the CUDA driver twins of the module rules.
package cudatwins

// #cgo CFLAGS: -I${SRCDIR}/../../../include
// #include <cuda.h>
import "C"

import (
	"errors"
	"unsafe"
)

func check(r C.CUresult) error {
	if r != C.CUDA_SUCCESS {
		return errors.New("cuda error")
	}
	return nil
}

func moduleLeak(path, name *C.char) (C.CUfunction, error) {
	var m C.CUmodule
	if err := check(C.cuModuleLoad(&m, path)); err != nil { // want `module m loaded by cuModuleLoad is not unloaded on this return; unload it on every path, e.g. defer C.cuModuleUnload\(m\)`
		return nil, err
	}
	var f C.CUfunction
	if err := check(C.cuModuleGetFunction(&f, m, name)); err != nil {
		return nil, err
	}
	return f, nil
}

func libraryLeak(path *C.char) error {
	var lib C.CUlibrary
	if err := check(C.cuLibraryLoadFromFile(&lib, path, nil, nil, 0, nil, nil, 0)); err != nil { // want `module lib loaded by cuLibraryLoadFromFile is not unloaded on this return; unload it on every path, e.g. defer C.cuLibraryUnload\(lib\)`
		return err
	}
	return nil
}

func fatBinaryBalanced(image unsafe.Pointer) error {
	var m C.CUmodule
	if err := check(C.cuModuleLoadFatBinary(&m, image)); err != nil {
		return err
	}
	defer C.cuModuleUnload(m)
	return nil
}

func libraryDoubleUnload(code unsafe.Pointer) {
	var lib C.CUlibrary
	if C.cuLibraryLoadData(&lib, code, nil, nil, 0, nil, nil, 0) != C.CUDA_SUCCESS {
		return
	}
	C.cuLibraryUnload(lib)
	C.cuLibraryUnload(lib) // want `module lib is unloaded twice`
}

func dataExUseAfterUnload(image unsafe.Pointer, name *C.char) {
	var m C.CUmodule
	if C.cuModuleLoadDataEx(&m, image, 0, nil, nil) != C.CUDA_SUCCESS {
		return
	}
	C.cuModuleUnload(m)
	var f C.CUfunction
	C.cuModuleGetFunction(&f, m, name) // want `cuModuleGetFunction uses module m after it was unloaded`
}
