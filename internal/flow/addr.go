package flow

import (
	"go/ast"
	"go/types"
	"strings"
)

// addrTarget says what the address &x points into: Go storage of x's own
// (own: x is a Go variable or a composite literal, or a field of a struct
// value or an element of an array value that is one), or the memory that
// the pointer or slice expression via points to (&s[i] of a slice s, &p.f
// and &(*[n]T)(p)[i] through a pointer p). Neither: x is one of cgo's
// variables (_Cvar_x, memory of C's) or another form. It walks down x
// iteratively.
func addrTarget(info *types.Info, x ast.Expr) (own bool, via ast.Expr) {
	for {
		switch y := ast.Unparen(x).(type) {
		case *ast.Ident:
			v, ok := info.Uses[y].(*types.Var)
			return ok && !strings.HasPrefix(v.Name(), "_C"), nil
		case *ast.CompositeLit:
			return true, nil
		case *ast.IndexExpr:
			switch under(info, y.X).(type) {
			case *types.Slice, *types.Pointer:
				return false, y.X
			case *types.Array:
				x = y.X
				continue
			}
			return false, nil
		case *ast.SelectorExpr:
			if sel, ok := info.Selections[y]; !ok || sel.Kind() != types.FieldVal {
				return false, nil
			}
			if _, isPtr := under(info, y.X).(*types.Pointer); isPtr {
				return false, y.X
			}
			x = y.X
		default:
			return false, nil
		}
	}
}
