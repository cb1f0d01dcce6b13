// Package cgonogpu uses cgo but calls no GPU runtime, like net or os/user in
// the standard library.
package cgonogpu

// #include <stdlib.h>
// #include <string.h>
import "C"

import "unsafe"

// Len is strlen through cgo.
func Len(s string) int {
	cs := C.CString(s)
	defer C.free(unsafe.Pointer(cs))
	return int(C.strlen(cs))
}
