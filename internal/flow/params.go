package flow

import (
	"go/types"
	"iter"
)

// Params yields sig's receiver, as Receiver, when it has one, then each of
// its parameters with its index: the numbering of ParamIndex, ArgAt and Ref.
func Params(sig *types.Signature) iter.Seq2[int, *types.Var] {
	return func(yield func(int, *types.Var) bool) {
		if sig.Recv() != nil && !yield(Receiver, sig.Recv()) {
			return
		}
		for i := range sig.Params().Len() {
			if !yield(i, sig.Params().At(i)) {
				return
			}
		}
	}
}

// ParamVar returns the parameter i of sig (Receiver: the receiver), the
// inverse of ParamIndex, or nil.
func ParamVar(sig *types.Signature, i int) *types.Var {
	switch {
	case i == Receiver:
		return sig.Recv()
	case i >= 0 && i < sig.Params().Len():
		return sig.Params().At(i)
	}
	return nil
}
