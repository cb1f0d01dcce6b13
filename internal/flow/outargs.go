package flow

import (
	"go/ast"
	"go/token"
	"go/types"
)

// outArgs is the Result of a Source that a call writes through an out-argument
// (AddOut).
const outArgs = -1

// AddOut records that call writes through its out-argument out: &v gives v
// a source, &x.f the field f in every value and, for a variable x, the
// field of x (Fields); each is a Source with Call call and Result Out.
func (s *Sources) AddOut(info *types.Info, out ast.Expr, call *ast.CallExpr) {
	src := Source{Call: call, Result: outArgs}
	if o := AddrOf(info, out); o != nil {
		s.Of[o] = append(s.Of[o], src)
	}
	if u, ok := StripConversions(info, out).(*ast.UnaryExpr); ok && u.Op == token.AND {
		if k, ok := fieldOfVar(info, u.X); ok {
			s.Fields[k] = append(s.Fields[k], src)
		}
	}
}
