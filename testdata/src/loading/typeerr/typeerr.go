// Package typeerr has a Go type error in one function: the error is
// printed, and the other functions are still analyzed.
package typeerr

// #include <hip/hip_runtime_api.h>
import "C"

import "unsafe"

// Broken does not type-check; it also leaks a module, which is not reported:
// the analyzers saw invalid types in it.
func Broken(image unsafe.Pointer) int {
	var m C.hipModule_t
	C.hipModuleLoadData(&m, image)
	return "not an int"
}

// Twice unloads the module twice.
func Twice(image unsafe.Pointer) {
	var m C.hipModule_t
	if C.hipModuleLoadData(&m, image) != C.hipSuccess {
		return
	}
	C.hipModuleUnload(m)
	C.hipModuleUnload(m) // hazard: HL2002
}
