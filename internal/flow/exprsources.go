package flow

import "go/ast"

// exprSources is es as sources (Source.Expr), for what is stored without
// an assignment of its own, such as a variable's elements (Sources.Elems).
func exprSources(es []ast.Expr) []Source {
	if len(es) == 0 {
		return nil
	}
	out := make([]Source, len(es))
	for i, e := range es {
		out[i].Expr = e
	}
	return out
}
