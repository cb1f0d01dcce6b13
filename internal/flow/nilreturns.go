package flow

import (
	"go/ast"
	"go/types"
)

// ReturnAt is a return statement and the state a solve reached it in.
type ReturnAt[S any] struct {
	Ret *ast.ReturnStmt
	S   S
}

// NilReturns returns the states of the return statements among rets that
// return nil in error result i of a function with results, when every
// other one returns an error taken to be non-nil (NonNilError) there: the
// states in which the error being nil is all the caller learns. ok is
// false when a return returns something else (a call that may return nil,
// a named result) or is a bare return of named results.
func NilReturns[S any](info *types.Info, results *types.Tuple, rets []ReturnAt[S], i int) (nils []S, ok bool) {
	for _, r := range rets {
		switch {
		case len(r.Ret.Results) != results.Len():
			return nil, false
		case IsNil(info, r.Ret.Results[i]):
			nils = append(nils, r.S)
		case !nonNilError(info, results, r.Ret.Results[i]):
			return nil, false
		}
	}
	return nils, true
}
