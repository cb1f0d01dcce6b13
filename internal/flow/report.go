package flow

import "go/types"

// Report is the reporting pass after Solve: it calls report with each
// function's final analysis, Solve's where it is final (ok) and otherwise
// a fresh one (Analyze) for a function that is Relevant. Closures that run
// in place (Index.InPlace) are left out: their caller's analysis walks them.
func (s Summaries[A]) Report(funcs []Func, final []A, ok []bool, report func(fn Func, a A)) {
	for i, fn := range funcs {
		if fn.Lit != nil && s.Index.InPlace(fn.Lit) {
			continue
		}
		a := final[i]
		if !ok[i] {
			if s.Relevant != nil && !s.Relevant(fn) {
				continue
			}
			a = s.Analyze(fn)
		}
		report(fn, a)
	}
}

// Objects returns the objects of funcs' declared functions, for
// Table.Export.
func Objects(info *types.Info, funcs []Func) []*types.Func {
	var out []*types.Func
	for _, fn := range funcs {
		if obj := fn.Object(info); obj != nil {
			out = append(out, obj)
		}
	}
	return out
}
