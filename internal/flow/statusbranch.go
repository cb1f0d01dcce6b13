package flow

import (
	"go/ast"
	"go/types"
	"slices"
)

// statusKey names what holds a status in a branch on it: the variable e is
// (if res != 0), or the expression e itself (if C.hipModuleLoad(&m, p) != 0),
// which the branch decides as written.
func statusKey(info *types.Info, e ast.Expr) any {
	e = ast.Unparen(e)
	if id, ok := e.(*ast.Ident); ok {
		return info.ObjectOf(id)
	}
	return e
}

// StatusSources returns the status variables that e, a call of a helper that
// turns a status into an error or a status (check(res), newErr("op", res),
// status(res).error("op")), is built from: its arguments, through
// conversions, and its method's receiver, when they are variables of a
// status type (isStatus) or of an integer type (a C status enum under another
// name). Such helpers return nil (or the zero status) exactly when the status
// they were given is a success. The call must itself be of a status type;
// calls skip says are not helpers (a runtime call) have no sources.
func StatusSources(info *types.Info, e ast.Expr, isStatus func(types.Type) bool, skip func(*ast.CallExpr) bool) []types.Object {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || skip(call) || !isStatus(info.TypeOf(call)) {
		return nil
	}
	args := slices.Clone(call.Args)
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		args = append(args, sel.X)
	}
	var out []types.Object
	for _, arg := range args {
		id, ok := StripConversions(info, arg).(*ast.Ident) // status(res)
		if !ok {
			continue
		}
		v, isVar := info.ObjectOf(id).(*types.Var)
		if isVar && (isStatus(v.Type()) || isInteger(v.Type())) {
			out = AppendNew(out, types.Object(v))
		}
	}
	return out
}

func isInteger(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsInteger != 0
}

// StatusBranch calls yield with what a branch on cond (taken) says about
// statuses: for each comparison with the success value that the branch
// decides (implied, ZeroComparison), the key (StatusKey) of the status
// compared, of that status stripped of conversions (Status(res) != OK), and
// of each variable sources names for it (StatusSources), with whether the
// status says success.
func StatusBranch(info *types.Info, cond ast.Expr, taken bool, sources func(ast.Expr) []types.Object, yield func(key any, success bool)) {
	implied(cond, taken, func(c ast.Expr, holds bool) {
		side, eq, ok := ZeroComparison(info, c)
		if !ok {
			return
		}
		failed := eq != holds // v != 0 held, or v == 0 did not
		yield(statusKey(info, side), !failed)
		if stripped := StripConversions(info, side); stripped != ast.Unparen(side) {
			yield(statusKey(info, stripped), !failed)
		}
		for _, v := range sources(side) {
			yield(v, !failed)
		}
	})
}
