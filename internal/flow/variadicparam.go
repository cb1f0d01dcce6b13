package flow

import (
	"go/ast"
	"go/types"
)

// isVariadicParam reports whether parameter i of sig is its variadic
// one, whose argument at a call is not one expression but the slice of
// those from i on.
func isVariadicParam(sig *types.Signature, i int) bool {
	return sig.Variadic() && i >= 0 && i >= sig.Params().Len()-1
}

// variadicArgs is the slice that a call's variadic arguments make: `f(a,
// b)` of `f(args ...unsafe.Pointer)` passes []unsafe.Pointer{a, b}. It is
// no node of the file: the Expr it embeds is the first of them (its
// position), and KernelArgs.Carried reads Elems as it reads the elements
// of a slice literal. Nothing else looks into it.
type variadicArgs struct {
	ast.Expr
	Elems []ast.Expr
}

// PassedArg returns what call passes in the parameter r names of the
// callee's signature sig: r.Arg, except for the variadic parameter. There,
// an argument array (array: a kernelParams parameter, whose elements are
// the kernel's arguments) is the slice spread with `args...`, or the
// VariadicArgs of the arguments from r.Param on; anything else is nil (a
// value that is one of several is not followed).
func PassedArg(info *types.Info, call *ast.CallExpr, sig *types.Signature, r Ref, array bool) ast.Expr {
	if !isVariadicParam(sig, r.Param) {
		return r.Arg(info, call)
	}
	switch {
	case !array || r.Path != "" || r.Param >= len(call.Args):
		return nil
	case call.Ellipsis.IsValid():
		return call.Args[r.Param]
	}
	return &variadicArgs{Expr: call.Args[r.Param], Elems: call.Args[r.Param:]}
}
