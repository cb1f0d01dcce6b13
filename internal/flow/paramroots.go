package flow

import (
	"go/ast"
	"go/token"
	"go/types"
	"maps"
	"slices"
)

// ParamsOf returns, sorted, the parameters of sig (-1 is the receiver) that
// roots holds: directly, through the value variable of a range loop over one
// (for _, m := range mods), or through an alias of one (ParamAliases).
func ParamsOf(info *types.Info, body *ast.BlockStmt, sig *types.Signature, roots map[types.Object]bool, aliases map[types.Object]types.Object) []int {
	ranged := rangedVars(info, body)
	maps.Copy(ranged, aliases)
	set := map[int]bool{}
	for root := range roots {
		if x, ok := ranged[root]; ok {
			root = x
		}
		if i, ok := paramIndex(sig, root); ok {
			set[i] = true
		}
	}
	return slices.Sorted(maps.Keys(set))
}

// ReturnedResult returns the index of the first result, in the order of
// body's return statements, whose value is one of objs (through conversions:
// ValueOf), and whether there is one.
func ReturnedResult(info *types.Info, body *ast.BlockStmt, objs map[types.Object]bool) (int, bool) {
	for _, ret := range ReturnStmts(body) {
		for i, r := range ret.Results {
			if valueOf(info, StripConversions(info, r), objs) {
				return i, true
			}
		}
	}
	return -1, false
}

// LastResult returns the index of sig's last result whose type is accepts,
// or -1.
func LastResult(sig *types.Signature, is func(types.Type) bool) int {
	for i := sig.Results().Len() - 1; i >= 0; i-- {
		if is(sig.Results().At(i).Type()) {
			return i
		}
	}
	return -1
}

// Addressed returns x for &x, else nil.
func Addressed(e ast.Expr) ast.Expr {
	if u, ok := ast.Unparen(e).(*ast.UnaryExpr); ok && u.Op == token.AND {
		return u.X
	}
	return nil
}

// StripAddr returns x for &x, else e.
func StripAddr(e ast.Expr) ast.Expr {
	if x := Addressed(e); x != nil {
		return x
	}
	return e
}

// PointerParam returns the parameter of sig (-1 is the receiver) that e is
// rooted at (RootVar), when that parameter is a pointer: a store through it
// reaches the caller's value, where one into a copy does not.
func PointerParam(info *types.Info, sig *types.Signature, e ast.Expr) (int, bool) {
	root := RootVar(info, e)
	if root == nil {
		return 0, false
	}
	if _, ok := root.Type().Underlying().(*types.Pointer); !ok {
		return 0, false
	}
	return paramIndex(sig, root)
}
