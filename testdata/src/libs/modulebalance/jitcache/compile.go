package jitcache

// #include <hip/hip_runtime_api.h>
// #include <stdlib.h>
import "C"

import (
	"errors"
	"unsafe"
)

// Compiler turns kernel source into a code object.
type Compiler interface {
	Compile(src string) ([]byte, error)
}

// Options configure a Cache.
type Options struct {
	Capacity int
	Compiler Compiler
	// Validate, when set, checks each compiled image before it is cached.
	Validate bool
}

var errEmpty = errors.New("jitcache: empty image")

// loadImage loads a code object; the module is the caller's on success.
func loadImage(image []byte) (C.hipModule_t, error) { // want loadImage:"returnsModule\\(result=0, status=1\\)"
	if len(image) == 0 {
		return nil, errEmpty
	}
	var m C.hipModule_t
	if err := check("hipModuleLoadData", C.hipModuleLoadData(&m, unsafe.Pointer(&image[0]))); err != nil {
		return nil, err
	}
	return m, nil
}

// lookup finds a kernel in a loaded module.
func lookup(m C.hipModule_t, name string) (C.hipFunction_t, error) { // want lookup:"borrows\\[0\\] uses\\[0\\]" lookup:"returnsFunction\\(result=0, param=0\\)"
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))
	var fn C.hipFunction_t
	if err := check("hipModuleGetFunction", C.hipModuleGetFunction(&fn, m, cname)); err != nil {
		return nil, err
	}
	return fn, nil
}

// validate checks that the image loads and exports every named kernel.
// Hazard: the failing lookup unloads the module, and the deferred unload
// unloads it again.
func validate(image []byte, names ...string) error {
	m, err := loadImage(image)
	if err != nil {
		return err
	}
	defer C.hipModuleUnload(m)
	for _, name := range names {
		if _, err := lookup(m, name); err != nil {
			C.hipModuleUnload(m) // want `module m is unloaded here and again by a deferred unload`
			return err
		}
	}
	return nil
}

// validateAll is validate's safe twin: the deferred unload is the only one.
func validateAll(image []byte, names ...string) error {
	m, err := loadImage(image)
	if err != nil {
		return err
	}
	defer C.hipModuleUnload(m)
	for _, name := range names {
		if _, err := lookup(m, name); err != nil {
			return err
		}
	}
	return nil
}

// probeLoad reports whether an image loads. Hazard: the failed load's
// module is unloaded.
func probeLoad(image []byte) bool {
	m, err := loadImage(image)
	if err != nil {
		C.hipModuleUnload(m) // want `unload`
		return false
	}
	C.hipModuleUnload(m)
	return true
}

// probeLoadChecked is its twin: only a module that loaded is unloaded.
func probeLoadChecked(image []byte) bool {
	m, err := loadImage(image)
	if err != nil {
		return false
	}
	C.hipModuleUnload(m)
	return true
}
