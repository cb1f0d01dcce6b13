package flow

import "go/types"

// IsVariadicParam reports whether parameter i of sig is its variadic
// one, whose argument at a call is not one expression but the slice of
// those from i on.
func IsVariadicParam(sig *types.Signature, i int) bool {
	return sig.Variadic() && i >= 0 && i >= sig.Params().Len()-1
}
