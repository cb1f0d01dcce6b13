package graphfree

import (
	"go/types"
)

// UniformFields returns, for the unexported fields of pkg that writes
// (Writes) store into, what each holds everywhere: classify gives a
// write's class and details, and a field keeps the details of its first
// write while every write has the same class. A write classify cannot
// place (ok false), or of another class, makes the field unknown; exported
// fields are left out, as other packages may store into them.
func uniformFields[D any, C comparable](pkg *types.Package, writes []write, classify func(w write) (d D, class C, ok bool)) map[*types.Var]D {
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
