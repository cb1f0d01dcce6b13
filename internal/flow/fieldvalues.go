package flow

import (
	"go/ast"
	"go/token"
	"go/types"
)

// FieldValues yields, in order, what field f of the struct value e (or of
// the struct e points to, &x) may hold: the value a composite literal
// gives it (value), or, for a variable v, what each value assigned to v
// holds in f (in source order, each followed the same way), then what is
// stored into v.f anywhere (stored: Fields, possibly none). It stops when
// yield returns false, and then returns false itself. Each step back (&x,
// a variable's value) is one level deeper, and nothing is yielded past
// MaxTrace levels.
func (s *Sources) FieldValues(info *types.Info, e ast.Expr, f *types.Var, yield func(value ast.Expr, stored []Source) bool) bool {
	return s.fieldValues(info, e, f, 0, yield)
}

func (s *Sources) fieldValues(info *types.Info, e ast.Expr, f *types.Var, depth int, yield func(ast.Expr, []Source) bool) bool {
	if depth > MaxTrace || e == nil {
		return true
	}
	switch x := StripConversions(info, e).(type) {
	case *ast.UnaryExpr:
		if x.Op == token.AND {
			return s.fieldValues(info, x.X, f, depth+1, yield)
		}
	case *ast.CompositeLit:
		for _, fv := range LitFields(info, x) {
			if fv.Field == f {
				return yield(fv.Value, nil)
			}
		}
	case *ast.CallExpr:
		// What the package's function returns (a constructor's literal).
		for _, r := range s.Returned(info, x, 0) {
			if !s.fieldValues(info, r, f, depth+1, yield) {
				return false
			}
		}
	case *ast.Ident:
		v, ok := info.Uses[x].(*types.Var)
		if !ok {
			return true
		}
		for _, src := range s.Of[v] {
			if src.Call != nil {
				for _, r := range s.Returned(info, src.Call, src.Result) {
					if !s.fieldValues(info, r, f, depth+1, yield) {
						return false
					}
				}
			} else if src.Expr != nil && !s.fieldValues(info, src.Expr, f, depth+1, yield) {
				return false
			}
		}
		return yield(nil, s.Fields[Loc{Root: v}.Field(f.Name())])
	}
	return true
}
