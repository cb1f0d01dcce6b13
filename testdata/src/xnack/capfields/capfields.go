// Package capfields holds guards kept in struct fields: a capability
// struct filled once and read through an accessor, whose field is a guard
// when everything stored into it anywhere in the package is one; and one
// variable reused for several attribute queries, where each comparison
// proves what the query before it asked.
package capfields

// #cgo CFLAGS: -I${SRCDIR}/../../../include
// #include <hip/hip_runtime_api.h>
// #include <stdlib.h>
import "C"

import (
	"strings"
	"sync"
	"unsafe"
)

var fn C.hipFunction_t

type caps struct {
	xnack    bool // only ever a gcnArchName check
	pageable bool // only ever the pageable attribute
	managed  bool // the managed-memory attribute: HMM, not XNACK
	fast     bool // set to true by a flag: no guard
}

var (
	once sync.Once
	c    caps
)

func query() caps {
	once.Do(func() {
		var prop C.hipDeviceProp_t
		if C.hipGetDeviceProperties(&prop, 0) == C.hipSuccess {
			c.xnack = strings.Contains(C.GoString(&prop.gcnArchName[0]), "xnack+")
		}
		var v C.int
		C.hipDeviceGetAttribute(&v, C.hipDeviceAttributePageableMemoryAccess, 0)
		c.pageable = v == 1
		C.hipDeviceGetAttribute(&v, C.hipDeviceAttributeManagedMemory, 0)
		c.managed = v == 1
	})
	return c
}

// SetFast is a flag: it proves nothing about the device.
func SetFast() { c.fast = true }

func launchHost(n int) {
	p := C.malloc(C.size_t(n))
	args := []unsafe.Pointer{unsafe.Pointer(&p)}
	C.hipModuleLaunchKernel(fn, 1, 1, 1, 64, 1, 1, 0, nil, &args[0], nil)
}

// usable reads two guard fields: it reports XNACK.
func usable() bool {
	k := query()
	return k.xnack || k.pageable
}
