package modulebalance

import (
	"github.com/hiplint/hiplint/internal/flow"
	"go/ast"
	"go/types"
)

// NonEscapingUses returns the ranges in body of uses that let no value of a
// type holds accepts escape: nil comparisons, the left sides of stores into
// fields, and reads of fields of a type holds rejects (a flag, a size). Every
// other node goes to more, which adds the uses the analyzer knows to be safe
// (calls that only borrow).
func nonEscapingUses(info *types.Info, body ast.Node, holds func(types.Type) bool, more func(n ast.Node, safe *ranges)) ranges {
	var safe ranges
	ast.Inspect(body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.BinaryExpr:
			if _, _, ok := flow.NilComparison(info, x); ok {
				safe.Add(x)
			}
		case *ast.AssignStmt:
			for _, l := range x.Lhs {
				if _, ok := ast.Unparen(l).(*ast.SelectorExpr); ok {
					safe.Add(l)
				}
			}
		case *ast.SelectorExpr:
			if tv, ok := info.Types[x]; ok && !holds(tv.Type) {
				if sel, ok := info.Selections[x]; ok && sel.Kind() == types.FieldVal {
					safe.Add(x)
				}
			}
		default:
			more(n, &safe)
		}
		return true
	})
	return safe
}
