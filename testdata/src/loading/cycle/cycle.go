// Package cycle includes cuBLAS's header, which no machine without CUDA has,
// and has a Go type error of its own that has nothing to do with C (an
// instantiation cycle, which go build rejects). Synthesis still rescues the
// package: only a type error that involves C says a synthesized declaration
// does not fit.
package cycle

/*
#include <hip/hip_runtime_api.h>
#include <cublas_v2.h>
*/
import "C"

import "unsafe"

// Tree does not type-check: its field's type instantiates Tree ever deeper.
type Tree[T any] struct{ next *Tree[Tree[T]] }

// Handle is a cuBLAS handle.
type Handle struct{ h C.cublasHandle_t }

// Twice unloads the module twice.
func Twice(image unsafe.Pointer) {
	var m C.hipModule_t
	if C.hipModuleLoadData(&m, image) != C.hipSuccess {
		return
	}
	C.hipModuleUnload(m)
	C.hipModuleUnload(m) // hazard: HL2002
}
