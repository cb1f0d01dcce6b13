package modulebalance

import (
	"github.com/hiplint/hiplint/internal/flow"
	"go/ast"
)

// Ranges collects the source ranges of expressions: the safe uses handed to
// UsedOutside, the borrowed arguments of calls.
type ranges []flow.PosRange

// Add appends the ranges of the non-nil expressions es.
func (rs *ranges) Add(es ...ast.Expr) {
	for _, e := range es {
		if e != nil {
			*rs = append(*rs, flow.PosRange{Pos: e.Pos(), End: e.End()})
		}
	}
}
