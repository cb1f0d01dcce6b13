// Package plain does not use cgo itself; it imports a package that does.
package plain

import (
	"unsafe"

	"example.com/calls/hipcalls"
)

// Alloc is a Go function named like a runtime call.
func Alloc(n int) (unsafe.Pointer, error) {
	return hipcalls.Wrapped(0, nil, nil)
}

func hipMalloc(p *unsafe.Pointer, n int) int { return 0 }

var _ = hipMalloc(nil, 0)
