package xnack

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"github.com/hiplint/hiplint/internal/flow"
)

// This file holds the shapes of library-style code (issue 19): kernel
// argument arrays built in C memory, and guard helpers that return an error.

// errGuard classifies e == nil holding for an error e: the result of a
// guard helper, or a variable that only ever holds such results.
func (a *analyzer) errGuard(e ast.Expr, depth int) (guardKind, string) {
	switch x := ast.Unparen(e).(type) {
	case *ast.CallExpr:
		return a.errGuardCall(x, 0)
	case *ast.Ident:
		v, ok := a.pass.TypesInfo.Uses[x].(*types.Var)
		if !ok || depth > 8 {
			return noGuard, ""
		}
		return meetSources(a.ix.Of[v], func(src flow.Source) (guardKind, string, bool) {
			if src.Call != nil {
				k, n := a.errGuardCall(src.Call, src.Result)
				return k, n, false
			}
			if call, ok := ast.Unparen(src.Expr).(*ast.CallExpr); ok {
				k, n := a.errGuardCall(call, 0)
				return k, n, false
			}
			return noGuard, "", false
		})
	}
	return noGuard, ""
}

func (a *analyzer) errGuardCall(call *ast.CallExpr, result int) (guardKind, string) {
	fn := flow.Callee(a.pass.TypesInfo, call)
	return guardResult(fn, a.summaryOf(fn).ErrGuard, result)
}

// guardResult is what result `result` of a call of fn proves by g, fn's
// summary of that kind of result.
func guardResult(fn *types.Func, g *Guard, result int) (guardKind, string) {
	switch {
	case g == nil || g.Result != result:
		return noGuard, ""
	case g.HMM:
		return hmmCheck, fmt.Sprintf("%s (it checks %s)", fn.Name(), g.Checks)
	}
	return xnackCheck, ""
}

// impliesNilComparison handles err == nil and err != nil: when the error is
// nil, what its guard helper proves.
func (a *analyzer) impliesNilComparison(x *ast.BinaryExpr, taken bool, depth int) (guardKind, string, bool) {
	if x.Op != token.EQL && x.Op != token.NEQ {
		return noGuard, "", false
	}
	info := a.pass.TypesInfo
	val := x.X
	switch {
	case flow.IsNil(info, x.Y):
	case flow.IsNil(info, x.X):
		val = x.Y
	default:
		return noGuard, "", false
	}
	if !flow.IsError(info.TypeOf(val)) {
		return noGuard, "", true
	}
	if (x.Op == token.EQL) != taken {
		return noGuard, "", true // the error is not nil here
	}
	k, n := a.errGuard(val, depth+1)
	return k, n, true
}

// findErrGuard summarizes a function whose error result is nil only on
// paths where XNACK was checked: at least one `return nil` there, each of
// them guarded, and every other return an error that is never nil
// (errors.New, fmt.Errorf, or an error variable returned as it is, as in
// `if err != nil { return err }`).
func (a *analyzer) findErrGuard(fi *fnInfo, r *walkResult) *Guard {
	if fi.obj == nil {
		return nil
	}
	info := a.pass.TypesInfo
	results := fi.obj.Signature().Results()
	for i := range results.Len() {
		if !flow.IsError(results.At(i).Type()) {
			continue
		}
		nils, ok := 0, true
		out := &Guard{Result: i}
		for _, rs := range r.returns {
			if len(rs.ret.Results) != results.Len() {
				ok = false
				break
			}
			e := rs.ret.Results[i]
			if !flow.IsNil(info, e) {
				if !flow.NonNilError(info, results, e) {
					ok = false
					break
				}
				continue
			}
			nils++
			switch {
			case rs.s.guarded:
			case rs.s.wrongAt.IsValid():
				out.HMM, out.Checks = true, r.wrongNames[rs.s.wrongAt]
			default:
				ok = false
			}
			if !ok {
				break
			}
		}
		if ok && nils > 0 {
			return out
		}
	}
	return nil
}
