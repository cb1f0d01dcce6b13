// Package plugins loads kernel plugins from a directory: every *.hsaco file
// is a module exporting an entry kernel named "run". A failed directory load
// must unload the plugins it already loaded.
package plugins

// #cgo CFLAGS: -I${SRCDIR}/../../../../include
// #include <hip/hip_runtime_api.h>
// #include <stdlib.h>
import "C"

import (
	"fmt"
	"sync"
	"unsafe"
)

// Plugin is one loaded module and its entry kernel.
type Plugin struct {
	Path  string
	mod   C.hipModule_t
	entry C.hipFunction_t
	once  sync.Once
}

type hipError struct {
	op   string
	code C.hipError_t
}

func (e hipError) Error() string { return fmt.Sprintf("%s failed: %d", e.op, int(e.code)) }

func wrap(op string, r C.hipError_t) error {
	if r != C.hipSuccess {
		return hipError{op, r}
	}
	return nil
}

// Open loads one plugin file.
func Open(path string) (*Plugin, error) { // want Open:"returnsModule\\(result=0, status=1\\)"
	cpath := C.CString(path)
	defer C.free(unsafe.Pointer(cpath))
	var m C.hipModule_t
	if err := wrap("hipModuleLoad", C.hipModuleLoad(&m, cpath)); err != nil {
		return nil, fmt.Errorf("plugins: open %s: %w", path, err)
	}
	centry := C.CString("run")
	defer C.free(unsafe.Pointer(centry))
	var fn C.hipFunction_t
	if err := wrap("hipModuleGetFunction", C.hipModuleGetFunction(&fn, m, centry)); err != nil {
		C.hipModuleUnload(m)
		return nil, fmt.Errorf("plugins: %s has no entry: %w", path, err)
	}
	return &Plugin{Path: path, mod: m, entry: fn}, nil
}

// Close unloads the plugin; calling it again does nothing.
func (p *Plugin) Close() { // want Close:"unloads\\[-1\\] idempotent\\[-1\\]"
	p.once.Do(func() {
		C.hipModuleUnload(p.mod)
	})
}

// Run launches the plugin's entry kernel.
func (p *Plugin) Run( // want Run:"borrows\\[-1\\] uses\\[-1\\]"
	n int, args []unsafe.Pointer) error {
	var params *unsafe.Pointer
	if len(args) > 0 {
		params = &args[0]
	}
	return wrap("hipModuleLaunchKernel", C.hipModuleLaunchKernel(p.entry, C.uint((n+255)/256), 1, 1, 256, 1, 1, 0, nil, params, nil))
}
