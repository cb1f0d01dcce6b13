package flow

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
)

// FieldStore is a store into a field of a variable or into what it points
// to: To is where the value goes, Add says it is added to a container there
// (p.mods = append(p.mods, m), p.byName[k] = m) rather than replacing what To
// held (p.m = m).
type FieldStore struct {
	To  ast.Expr
	Add bool
}

// StoresOf returns the plain assignments (=) in body, closures left out, that
// store one of objs (through conversions and &) into a field, or add it to a
// slice or map (AddedTo) reached directly from a variable (DirectPart). A
// replacing store counts only when holds accepts the type of what is stored,
// or when it has no type (a C type at tier 3).
func StoresOf(info *types.Info, body *ast.BlockStmt, objs map[types.Object]bool, holds func(types.Type) bool) []FieldStore {
	if len(objs) == 0 {
		return nil
	}
	isObj := func(e ast.Expr) bool {
		id, ok := ast.Unparen(StripAddr(StripConversions(info, e))).(*ast.Ident)
		return ok && objs[info.Uses[id]]
	}
	var out []FieldStore
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false // cgo's temporaries are not stores; closures are other functions
		case *ast.AssignStmt:
			if n.Tok != token.ASSIGN || len(n.Lhs) != len(n.Rhs) {
				return true
			}
			for i, lhs := range n.Lhs {
				rhs := n.Rhs[i]
				if to, vals, ok := AddedTo(info, lhs, rhs); ok {
					if directPart(to) && slices.ContainsFunc(vals, isObj) {
						out = append(out, FieldStore{To: to, Add: true})
					}
					continue
				}
				if _, ok := ast.Unparen(lhs).(*ast.SelectorExpr); ok && directPart(lhs) && isObj(rhs) && (holds(info.TypeOf(rhs)) || Untyped(info.TypeOf(rhs))) {
					out = append(out, FieldStore{To: lhs})
				}
			}
		}
		return true
	})
	return out
}
