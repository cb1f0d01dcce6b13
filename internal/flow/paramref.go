package flow

import (
	"go/ast"
	"go/token"
	"go/types"
)

// ParamRefOf returns the parameter (or receiver) of a function with
// signature sig whose memory e may point to: the parameter itself, seen
// through conversions, uintptr round trips, local copies, &s[i], &p.f of a
// pointer p, s[i:], unsafe.Slice, unsafe.SliceData and unsafe.StringData;
// or a field p.f of it (one field: the Ref's path is "" or ".f"), or an
// element of it (path "[]": s[i], a range loop's variable). A local
// variable stands for everything assigned to it (src), and the first of
// those that is a parameter's answers. Package variables, stored from
// anywhere, are no parameter's. Bounded: 8 steps.
func ParamRefOf(info *types.Info, src *Sources, sig *types.Signature, e ast.Expr) (Ref, bool) {
	return paramRefOf(info, src, sig, e, 0)
}

func paramRefOf(info *types.Info, src *Sources, sig *types.Signature, e ast.Expr, depth int) (Ref, bool) {
	if sig == nil || depth > 8 || e == nil {
		return Ref{}, false
	}
	next := func(e ast.Expr) (Ref, bool) { return paramRefOf(info, src, sig, e, depth+1) }
	switch x := StripConversions(info, e).(type) {
	case *ast.Ident:
		v, ok := info.Uses[x].(*types.Var)
		if !ok {
			return Ref{}, false
		}
		if i, ok := paramIndex(sig, v); ok {
			return Ref{Param: i}, true
		}
		if _, local := IsLocalVar(v); !local {
			return Ref{}, false
		}
		for _, s := range src.Of[v] {
			if s.Expr == nil {
				continue
			}
			if r, ok := next(s.Expr); ok {
				return r, true
			}
		}
		// A range loop's element of a parameter's slice, map or channel.
		for _, rv := range src.ranges[v] {
			if rv.pos != elemPos(info, rv.rs.X) {
				continue
			}
			if r, ok := next(rv.rs.X); ok && r.Path == "" {
				return Ref{Param: r.Param, Path: "[]"}, true
			}
		}
	case *ast.IndexExpr: // s[i] of a parameter's slice or map: its element
		switch under(info, x.X).(type) {
		case *types.Slice, *types.Map:
			if r, ok := next(x.X); ok && r.Path == "" {
				return Ref{Param: r.Param, Path: "[]"}, true
			}
		}
	case *ast.SelectorExpr:
		if f := SelectedField(info, x); f != nil {
			if r, ok := next(x.X); ok && r.Path == "" {
				r.Path = "." + f.Name()
				return r, true
			}
		}
	case *ast.UnaryExpr:
		if x.Op != token.AND {
			return Ref{}, false
		}
		switch y := ast.Unparen(x.X).(type) {
		case *ast.IndexExpr: // &s[i]: the memory s points to
			switch under(info, y.X).(type) {
			case *types.Slice, *types.Pointer:
				return next(y.X)
			}
		case *ast.SelectorExpr: // &p.f of a pointer p: the memory p points to
			if SelectedField(info, y) == nil {
				break
			}
			if _, isPtr := under(info, y.X).(*types.Pointer); isPtr {
				if r, ok := next(y.X); ok && r.Path == "" {
					return r, true
				}
			}
		}
	case *ast.SliceExpr:
		return next(x.X)
	case *ast.CallExpr:
		if len(x.Args) > 0 {
			switch unsafeBuiltin(info, x) {
			case "Slice", "SliceData", "StringData":
				return next(x.Args[0])
			}
		}
	}
	return Ref{}, false
}

// RefType returns the type of the parameter or receiver r names in a
// function with signature sig (not of r's path), or nil.
func RefType(sig *types.Signature, r Ref) types.Type {
	switch {
	case r.Param == Receiver && sig.Recv() != nil:
		return sig.Recv().Type()
	case r.Param >= 0 && r.Param < sig.Params().Len():
		return sig.Params().At(r.Param).Type()
	}
	return nil
}

// FieldByName returns the field name of t (or of what t points to), as
// seen from package pkg, or nil.
func FieldByName(t types.Type, pkg *types.Package, name string) *types.Var {
	if t == nil || !LookupSafe(t) { // go/types would never return (TypeWalk)
		return nil
	}
	obj, _, _ := types.LookupFieldOrMethod(t, true, pkg, name)
	v, ok := obj.(*types.Var)
	if !ok || !v.IsField() {
		return nil
	}
	return v
}
