// Package copysynclib holds the implementations and helpers that the
// copy-sync matrix (package copysync) reaches across a package boundary.
package copysynclib

// #cgo CFLAGS: -I${SRCDIR}/../../../include
// #include <hip/hip_runtime_api.h>
import "C"

import (
	"fmt"
	"unsafe"
)

// Device is one GPU.
type Device struct{ ID int }

// CopyPtr copies bytes from src to dst on the device; it returns before the
// data lands.
func (d *Device) CopyPtr(dst, src unsafe.Pointer, bytes int) error { // want CopyPtr:`copiesInto\(hipMemcpy dst=p0\)`
	if r := C.hipMemcpy(dst, src, C.size_t(bytes), C.hipMemcpyDeviceToDevice); r != C.hipSuccess {
		return fmt.Errorf("hip error %d", int(r))
	}
	return nil
}
