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

// UniformFields returns, for the unexported fields of pkg that writes
// (Writes) store into, what each holds everywhere: classify gives a
// write's class and details, and a field keeps the details of its first
// write while every write has the same class. A write classify cannot
// place (ok false), or of another class, makes the field unknown; exported
// fields are left out, as other packages may store into them.
func UniformFields[D any, C comparable](pkg *types.Package, writes []Write, classify func(w Write) (d D, class C, ok bool)) map[*types.Var]D {
	out := map[*types.Var]D{}
	classes := map[*types.Var]C{}
	poisoned := map[*types.Var]bool{}
	for _, w := range writes {
		f := w.Target
		if !f.IsField() || f.Pkg() != pkg || f.Exported() || poisoned[f] {
			continue
		}
		d, class, ok := classify(w)
		prev, had := classes[f]
		if !ok || had && prev != class {
			poisoned[f] = true
			delete(out, f)
			continue
		}
		if !had {
			out[f], classes[f] = d, class
		}
	}
	return out
}
