// Command paramlaunchprog passes system memory to functions that launch
// kernels on their parameters, from init and main.
package main

// #include <stdlib.h>
import "C"

import (
	"unsafe"

	"xnack/paramlaunch"
	"xnack/paramlaunchlib"
)

func init() {
	p := C.malloc(16)
	paramlaunchlib.Fill(p) // want `init reaches C.malloc memory \(p\) passed to Fill, which hands it to hipModuleLaunchKernel without an XNACK guard: without XNACK the GPU cannot fault the pages in`
}

func main() {
	paramlaunch.FillDevice()
	paramlaunch.FillGuardedSystem()
	paramlaunch.FillSystem() // want `main reaches C.malloc memory \(p\) passed to fill, which hands it to hipModuleLaunchKernel in FillSystem without an XNACK guard`
	data := make([]float32, 4)
	paramlaunch.Fill(unsafe.Pointer(&data[0])) // one report per check and entry: this is a related position
	guarded()
}

func guarded() {
	if !paramlaunchlib.Pageable() {
		return
	}
	paramlaunchlib.Fill(C.malloc(16))
}
