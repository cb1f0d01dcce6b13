// Package hang leaks a module and then never returns: confirm must kill the
// test's process group at its time limit and still judge the finding.
package hang

/*
#include <stdlib.h>
#include <hip/hip_runtime_api.h>
*/
import "C"

import (
	"time"
	"unsafe"
)

const ptx = ".version 7.0\n.target sm_50\n.address_size 64\n.visible .entry noop()\n{\n\tret;\n}\n"

// LoadAndWait loads a module, keeps no handle to it and waits forever.
func LoadAndWait() {
	img := C.CString(ptx)
	defer C.free(unsafe.Pointer(img))
	var m C.hipModule_t
	if C.hipModuleLoadData(&m, unsafe.Pointer(img)) != C.hipSuccess {
		return
	}
	time.Sleep(time.Hour)
}
