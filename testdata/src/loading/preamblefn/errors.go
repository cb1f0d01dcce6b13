// Package preamblefn includes cuBLAS's header, which no machine without
// CUDA has, and defines in its preamble its own C helper that uses
// cuBLAS's types and constants (as unixpickle/cuda's cublas does), called
// from Go. hiplint stubs the header and declares what the helper's
// definition uses (cublasStatus_t, the CUBLAS_STATUS_* constants) from its
// use in the C code, never the helper itself, whose definition would clash
// with a made-up declaration: the package keeps the runtime's C types.
package preamblefn

/*
#include <cublas_v2.h>

// Needed to check for NULL from cgo.
const char * go_cublas_null_message = NULL;

const char * go_cublas_err(cublasStatus_t s) {
	switch (s) {
	case CUBLAS_STATUS_SUCCESS:
		return NULL;
	case CUBLAS_STATUS_NOT_INITIALIZED:
		return "CUBLAS_STATUS_NOT_INITIALIZED";
	case CUBLAS_STATUS_ALLOC_FAILED:
		return "CUBLAS_STATUS_ALLOC_FAILED";
	default:
		return "unknown cuBLAS error";
	}
}
*/
import "C"

import "errors"

// newError is nil for CUBLAS_STATUS_SUCCESS, else the status's name.
func newError(e C.cublasStatus_t) error {
	cstr := C.go_cublas_err(e)
	if cstr == C.go_cublas_null_message {
		return nil
	}
	return errors.New(C.GoString(cstr))
}
