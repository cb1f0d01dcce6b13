package flow

import (
	"go/ast"
	"go/token"
	"go/types"
)

// This file resolves expressions to the variables they are rooted at,
// without field paths: what summaries ask when they only need to know whose
// parameter or which local an argument belongs to.

// argsAt returns the arguments call passes for params (Receiver for the
// receiver of a method call), in order, skipping those it does not pass.
func argsAt(call *ast.CallExpr, params []int) []ast.Expr {
	var out []ast.Expr
	for _, p := range params {
		if e := argAt(call, p); e != nil {
			out = append(out, e)
		}
	}
	return out
}

// RootVar returns the variable that e (x, x.f.g, *x, &x, x[i], with
// conversions and parentheses around it) is rooted at, or nil. Selections of
// methods and expressions rooted at a call are not rooted at a variable.
func RootVar(info *types.Info, e ast.Expr) *types.Var {
	e = StripConversions(info, e)
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.Ident:
			obj := info.Uses[x]
			if obj == nil {
				obj = info.Defs[x]
			}
			v, _ := obj.(*types.Var)
			return v
		case *ast.SelectorExpr:
			if sel, ok := info.Selections[x]; !ok || sel.Kind() != types.FieldVal {
				return nil
			}
			e = x.X
		case *ast.StarExpr:
			e = x.X
		case *ast.IndexExpr: // mods[i]: an element of what mods holds
			e = x.X
		case *ast.UnaryExpr:
			if x.Op != token.AND {
				return nil
			}
			e = x.X
		default:
			return nil
		}
	}
}

// fieldPath returns the variable and the field path (".f.g") that e, a
// selector chain x.f.g through pointers (conversions and parentheses
// aside), names. Chains deeper than 32 selections are not followed.
func fieldPath(info *types.Info, e ast.Expr) (*types.Var, string, bool) {
	path := ""
	for range 32 {
		e = StripConversions(info, e)
		switch x := e.(type) {
		case *ast.Ident:
			v, ok := info.Uses[x].(*types.Var)
			return v, path, ok
		case *ast.SelectorExpr:
			if sel, ok := info.Selections[x]; !ok || sel.Kind() != types.FieldVal {
				return nil, "", false
			}
			path = "." + x.Sel.Name + path
			e = x.X
		case *ast.StarExpr:
			e = x.X
		default:
			return nil, "", false
		}
	}
	return nil, "", false
}

// rangedVars maps the value variables of the range loops in body (its
// closures included) to the variable each loop ranges over (RootVar of the
// ranged expression).
func rangedVars(info *types.Info, body *ast.BlockStmt) map[types.Object]types.Object {
	out := map[types.Object]types.Object{}
	for v, x := range rangedExprs(info, body) {
		if root := RootVar(info, x); root != nil {
			out[v] = root
		}
	}
	return out
}

// rangedExprs maps the value variables of the range loops in body (its
// closures included) to the expression each loop ranges over.
func rangedExprs(info *types.Info, body *ast.BlockStmt) map[types.Object]ast.Expr {
	out := map[types.Object]ast.Expr{}
	ast.Inspect(body, func(n ast.Node) bool {
		if rs, ok := n.(*ast.RangeStmt); ok {
			if id, ok := rs.Value.(*ast.Ident); ok {
				if v := info.Defs[id]; v != nil {
					out[v] = rs.X
				}
			}
		}
		return true
	})
	return out
}

// isContainer reports whether t is a map or a slice.
func isContainer(t types.Type) bool {
	if t == nil {
		return false
	}
	switch t.Underlying().(type) {
	case *types.Map, *types.Slice:
		return true
	}
	return false
}

// Declares reports whether obj is declared inside body.
func Declares(body ast.Node, obj types.Object) bool {
	return obj.Pos() >= body.Pos() && obj.Pos() < body.End()
}
