package flow

import (
	"go/types"

	"github.com/hiplint/hiplint/internal/cgocall"
)

// libraryArgs reads a call of a C library routine (a GPU library such as
// hipBLAS; neither libc nor cgo's own functions, cgocall.IsLibc, nor the
// runtime) with nargs arguments from the parameters of its signature: the
// index of its first stream argument (-1 when it has none, and its work
// runs on a stream its library handle holds), and the arguments that may
// point to memory (pointers, device pointers, uintptrs; HoldsPointer and
// IsUintptr), which the routine may read on the device. ok is false for
// libc and when the arguments do not match the parameters (variadic C
// functions).
func libraryArgs(name string, sig *types.Signature, nargs int) (stream int, memory []int, ok bool) {
	if cgocall.IsLibc(name) || sig == nil || sig.Params().Len() != nargs {
		return -1, nil, false
	}
	stream = -1
	for i := range nargs {
		switch t := sig.Params().At(i).Type(); {
		case cgocall.IsStreamType(t):
			if stream < 0 {
				stream = i
			}
		case HoldsPointer(t) || isUintptr(t):
			memory = append(memory, i)
		}
	}
	return stream, memory, true
}
