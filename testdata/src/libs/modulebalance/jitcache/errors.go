// Package jitcache compiles kernels on demand and keeps the loaded modules
// in a least-recently-used cache: a miss compiles the source, loads the image
// with hipModuleLoadData and looks the kernel up; evicting an entry unloads
// its module, and Close unloads every module still cached.
package jitcache

// #cgo CFLAGS: -I${SRCDIR}/../../../../include
// #include <hip/hip_runtime_api.h>
// #include <stdlib.h>
import "C"

import "fmt"

// Error is a failed HIP call.
type Error struct {
	Op   string
	Code int
}

func (e *Error) Error() string { return fmt.Sprintf("jitcache: %s: hip error %d", e.Op, e.Code) }

func check(op string, r C.hipError_t) error {
	if r != C.hipSuccess {
		return &Error{Op: op, Code: int(r)}
	}
	return nil
}
