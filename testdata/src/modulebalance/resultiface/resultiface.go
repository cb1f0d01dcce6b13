// Package resultiface returns a load's status as a named error interface
// (type Result interface{ error; Code() uint32 }), as the cudago bindings
// do, and callers store the library in a package cache. On the failed load's
// return there is nothing to unload; a library loaded and dropped on a later
// error return leaks.
package resultiface

// #cgo CFLAGS: -I${SRCDIR}/../../../include
// #include <cuda.h>
import "C"

import (
	"errors"
	"unsafe"
)

// Result is an error with the driver's code.
type Result interface {
	error
	Code() uint32
}

type codeErr uint32

func (e codeErr) Error() string    { return "cuda error" }
func (e codeErr) Code() uint32     { return uint32(e) }
func toResult(r C.CUresult) Result { return codeErr(r) }

// Lib is a loaded module.
type Lib struct{ m C.CUmodule }

// Load loads an image; the Lib is nil when the Result is not.
func Load(img []byte) (*Lib, Result) { // want Load:"returnsModule\\(result=0, status=1\\)"
	if len(img) == 0 {
		return nil, codeErr(1)
	}
	var m C.CUmodule
	if r := C.cuModuleLoadData(&m, unsafe.Pointer(&img[0])); r != C.CUDA_SUCCESS {
		return nil, toResult(r)
	}
	return &Lib{m}, nil
}

// Unload unloads the module.
func (l *Lib) Unload() Result { // want Unload:"unloads\\[-1\\]"
	if r := C.cuModuleUnload(l.m); r != C.CUDA_SUCCESS {
		return toResult(r)
	}
	return nil
}

var cache = map[string]*Lib{}

// Init loads into the cache; its error return follows a failed load.
func Init(name string, img []byte) error {
	lib := cache[name]
	if lib == nil {
		var err error
		lib, err = Load(img)
		if err != nil {
			return err
		}
		cache[name] = lib
	}
	return nil
}

// InitChecked drops the library on a later error.
func InitChecked(name string, img []byte) error {
	lib, err := Load(img) // want `module lib loaded by Load is not unloaded on this return`
	if err != nil {
		return err
	}
	if len(name) == 0 {
		return errors.New("no name")
	}
	cache[name] = lib
	return nil
}
