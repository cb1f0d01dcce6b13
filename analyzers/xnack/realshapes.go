package xnack

import (
	"fmt"
	"go/ast"
	"go/types"

	"github.com/hiplint/hiplint/internal/flow"
)

// This file holds the shapes of library-style code (issue 19): kernel
// argument arrays built in C memory, and guard helpers that return an error.

// guardResult is what result `result` of a call of fn proves by its
// summary s: a boolean result being true (Reports) or an error result
// being nil (ErrGuard).
func guardResult(fn *types.Func, s Summary, result int) guard {
	for _, g := range [...]*Guard{s.Reports, s.ErrGuard} {
		switch {
		case g == nil || g.Result != result:
		case g.HMM:
			return guard{hmmCheck, fmt.Sprintf("%s (it checks %s)", fn.Name(), g.Checks)}
		default:
			return guard{kind: xnackCheck}
		}
	}
	return guard{}
}

// impliesNilComparison handles err == nil and err != nil: when the error is
// nil, what its guard helper proves (the result of one, or a variable that
// only ever holds such results).
func (a *analyzer) impliesNilComparison(x *ast.BinaryExpr, taken bool) (guard, bool) {
	val, eq, ok := flow.NilComparison(a.info, x)
	if !ok {
		return guard{}, false
	}
	if !flow.IsError(a.info.TypeOf(val)) || eq != taken {
		return guard{}, true // or the error is not nil here
	}
	switch x := ast.Unparen(val).(type) {
	case *ast.CallExpr:
		return a.guardCall(x, 0, a.guards.Start()), true
	case *ast.Ident:
		if v, ok := a.info.Uses[x].(*types.Var); ok {
			return a.guards.Start().Sources(a.ix.Of[v]), true
		}
	}
	return guard{}, true
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
	results := fi.obj.Signature().Results()
results:
	for i := range results.Len() {
		if !flow.IsError(results.At(i).Type()) {
			continue
		}
		out, nils := &Guard{Result: i}, 0
		for _, rs := range r.returns {
			if len(rs.ret.Results) != results.Len() {
				continue results
			}
			switch e := rs.ret.Results[i]; {
			case !flow.IsNil(a.info, e):
				if !flow.NonNilError(a.info, results, e) {
					continue results
				}
			case rs.s.guarded:
				nils++
			case rs.s.wrongAt.IsValid():
				nils++
				out.HMM, out.Checks = true, a.hmmNames[rs.s.wrongAt]
			default:
				continue results
			}
		}
		if nils > 0 {
			return out
		}
	}
	return nil
}
