package status

import (
	"go/ast"
	"go/types"

	"github.com/hiplint/hiplint/internal/flow"
)

// FailedSites returns the sites whose calls a branch on cond (taken or not)
// proves failed (failedStatus): those of the calls whose status the compared
// variable holds (if err != nil), or else the sites sitesIn finds in the
// compared expression itself (if C.hipMalloc(&p, n) != 0). Analyzers drop
// there what a failed call would have done: a copy that returned an error
// is not in flight, an allocation that failed holds no memory.
func (s Statuses) FailedSites(info *types.Info, cond ast.Expr, taken bool, sitesIn func(ast.Expr) []int) []int {
	v, failed := failedStatus(info, cond, taken)
	if !failed {
		return nil
	}
	if id, ok := ast.Unparen(v).(*ast.Ident); ok {
		return s.Sites(info.ObjectOf(id))
	}
	return sitesIn(v)
}

// failedStatus returns the status value that cond proves a failure on the
// branch where cond is taken: v for `v != nil`, `v != 0` (hipSuccess is 0)
// when taken, and for `v == nil`, `v == 0` when not. Analyzers use it to
// drop what a failed runtime call would have done: a copy that returned an
// error is not in flight, an allocation that failed holds no memory.
func failedStatus(info *types.Info, cond ast.Expr, taken bool) (ast.Expr, bool) {
	v, eq, ok := flow.ZeroComparison(info, cond)
	if !ok || eq == taken {
		return nil, false
	}
	return v, true
}
