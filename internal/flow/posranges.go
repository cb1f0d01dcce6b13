package flow

import "go/ast"

// Ranges collects the source ranges of expressions: the safe uses handed to
// UsedOutside, the borrowed arguments of calls.
type Ranges []PosRange

// Add appends the ranges of the non-nil expressions es.
func (rs *Ranges) Add(es ...ast.Expr) {
	for _, e := range es {
		if e != nil {
			*rs = append(*rs, PosRange{Pos: e.Pos(), End: e.End()})
		}
	}
}
