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

// ErrUnlessXNACK is the fact that a function's error result Result is nil
// only when XNACK is on (Checks is empty), or only when an attribute that
// reports HMM support, not XNACK, is 1 (Checks names it): a guard helper such
// as `if err := requireXNACK(dev); err != nil { log.Fatal(err) }`.
type ErrUnlessXNACK struct {
	Result int
	Checks string
}

func (*ErrUnlessXNACK) AFact() {}
func (f *ErrUnlessXNACK) String() string {
	if f.Checks != "" {
		return fmt.Sprintf("errUnlessHMM(result=%d, %s)", f.Result, f.Checks)
	}
	return fmt.Sprintf("errUnlessXNACK(result=%d)", f.Result)
}

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
	r, ok := a.errReportsOf(fn)
	if !ok || r.result != result {
		return noGuard, ""
	}
	if r.kind == hmmCheck {
		return hmmCheck, fmt.Sprintf("%s (it checks %s)", fn.Name(), r.checks)
	}
	return r.kind, ""
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
	if t := info.TypeOf(val); t == nil || !types.Identical(t, types.Universe.Lookup("error").Type()) {
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
func (a *analyzer) findErrGuard(fi *fnInfo, r *walkResult) (reportSummary, bool) {
	if fi.obj == nil {
		return reportSummary{}, false
	}
	info := a.pass.TypesInfo
	results := fi.obj.Signature().Results()
	errType := types.Universe.Lookup("error").Type()
	for i := range results.Len() {
		if !types.Identical(results.At(i).Type(), errType) {
			continue
		}
		nils, ok := 0, true
		out := reportSummary{result: i, kind: xnackCheck}
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
				out.kind, out.checks = hmmCheck, r.wrongNames[rs.s.wrongAt]
			default:
				ok = false
			}
			if !ok {
				break
			}
		}
		if ok && nils > 0 {
			return out, true
		}
	}
	return reportSummary{}, false
}
