package flow

import (
	"go/ast"
	"go/types"
)

// ElementsAsWritten returns a Locator.Index hook that names an element of a
// map, slice or array of pointers or uintptrs (buffers["y"], bufs[i]) by
// its index as written, "[i]": another index may be the same element, but
// is not taken to be. Elements of other types, and indexes of other
// containers, are not named.
func ElementsAsWritten(info *types.Info) func(*ast.IndexExpr) (string, bool) {
	return func(x *ast.IndexExpr) (string, bool) {
		switch t := info.TypeOf(x.X); t.Underlying().(type) {
		case *types.Map, *types.Slice, *types.Array:
		default:
			return "", false
		}
		et := info.TypeOf(x)
		if et == nil || !isUintptr(et) && !HoldsPointer(et) {
			return "", false
		}
		return "[" + types.ExprString(x.Index) + "]", true
	}
}
