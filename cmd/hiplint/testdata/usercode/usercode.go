// Package usercode would leave a mark if anything ran it: its init, its
// TestMain, its tests and its go:generate line each create a file named by
// HIPLINT_USERCODE_MARKER. Linting must run none of them.
package usercode

//go:generate sh -c "echo generate >> $HIPLINT_USERCODE_MARKER"

// #cgo CFLAGS: -I${SRCDIR}/../../../../testdata/include
// #include <hip/hip_runtime_api.h>
import "C"

import "os"

func init() { Mark("init") }

// Mark appends what ran to the marker file, when one is named.
func Mark(what string) {
	path := os.Getenv("HIPLINT_USERCODE_MARKER")
	if path == "" {
		return
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return
	}
	defer f.Close()
	f.WriteString(what + "\n")
}

// Leak loads a module and never unloads it (HL2001), so that there is a
// finding for confirm to plan a run for.
func Leak() C.hipError_t {
	var m C.hipModule_t
	return C.hipModuleLoad(&m, nil)
}
