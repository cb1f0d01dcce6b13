// Package usesmissing imports a package analyzed at tier 3: it type-checks
// against it and sees the facts of its wrappers.
package usesmissing

import (
	"unsafe"

	"github.com/hiplint/hiplint/testdata/src/loading/missingsdk"
)

// Read reads the destination of a copy that has not landed.
func Read(dst, src unsafe.Pointer) float32 {
	missingsdk.CopyDtoD(dst, src, 4)
	return *(*float32)(dst) // hazard: HL1001
}

// ReadAfterSync is the safe twin.
func ReadAfterSync(dst, src unsafe.Pointer) float32 {
	missingsdk.CopyDtoD(dst, src, 4)
	missingsdk.Sync()
	return *(*float32)(dst)
}
