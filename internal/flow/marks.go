package flow

import (
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// Marks is a summary that a function has or has not, with no value: a
// fact type without fields (initializes the runtime, sets an environment
// variable). It is Table's counterpart for such facts, whose zero value is
// the only value, so that a Table cannot tell them from no summary: this
// package's marks, else the imported fact, else the meet over an interface
// method's implementations (Every: all of them have it; else any does).
type Marks[F any, PF interface {
	*F
	analysis.Fact
}] struct {
	pass  *analysis.Pass
	impls *Impls
	local map[*types.Func]bool
	// Every makes an interface method marked when every implementation is;
	// otherwise it is marked when any is.
	Every bool
}

// NewMarks returns an empty mark set for pass.
func NewMarks[F any, PF interface {
	*F
	analysis.Fact
}](pass *analysis.Pass, impls *Impls) *Marks[F, PF] {
	return &Marks[F, PF]{pass: pass, impls: impls, local: map[*types.Func]bool{}}
}

// Has reports whether fn is marked.
func (m *Marks[F, PF]) Has(fn *types.Func) bool {
	if fn == nil {
		return false
	}
	if m.impls != nil {
		if impls := m.impls.Of(fn); impls != nil {
			if len(impls) == 0 {
				return false
			}
			for _, impl := range impls { // never an interface method: one level
				if m.Has(impl) != m.Every {
					return !m.Every
				}
			}
			return m.Every
		}
	}
	if fn.Pkg() == m.pass.Pkg {
		return m.local[fn.Origin()]
	}
	return ImportedFact(m.pass, fn, PF(new(F)))
}

// Set marks fn or not and reports whether that changed.
func (m *Marks[F, PF]) Set(fn *types.Func, on bool) bool {
	if m.local[fn] == on {
		return false
	}
	if on {
		m.local[fn] = true
	} else {
		delete(m.local, fn)
	}
	return true
}

// Export exports the marks of funcs as facts.
func (m *Marks[F, PF]) Export(funcs []*types.Func) {
	for _, fn := range funcs {
		if m.local[fn] {
			m.pass.ExportObjectFact(fn, PF(new(F)))
		}
	}
}
