package main

import (
	"fmt"
	"runtime/debug"

	"golang.org/x/tools/go/analysis"
)

// guard returns copies of analyzers whose Run turns a panic into an error
// naming the analyzer and the package. The drivers run each analyzer on its
// own goroutine and do not recover, so without this one analyzer's bug on one
// package would kill the whole run and hide every other finding.
//
// Everything the analyzers require is copied too, and each copy's Requires
// points at the copies, so the action graph is built from copies only. The
// analyzers themselves still look up ResultOf by the original pointers (for
// example inspect.Analyzer), so the guarded Run hands them a pass whose
// ResultOf is keyed by the originals. With stacks set, the error carries the
// goroutine's stack.
func guard(analyzers []*analysis.Analyzer, stacks bool) []*analysis.Analyzer {
	return guardThen(analyzers, stacks, nil)
}

// guardThen is guard with a function called, when not nil, with the checker's
// pass and the result after each Run returns or panics (the standalone
// driver's releaser).
func guardThen(analyzers []*analysis.Analyzer, stacks bool, after func(*analysis.Pass, any)) []*analysis.Analyzer {
	copyOf := make(map[*analysis.Analyzer]*analysis.Analyzer)
	originalOf := make(map[*analysis.Analyzer]*analysis.Analyzer)
	var guarded func(a *analysis.Analyzer) *analysis.Analyzer
	guarded = func(a *analysis.Analyzer) *analysis.Analyzer {
		if c, ok := copyOf[a]; ok {
			return c
		}
		c := new(analysis.Analyzer)
		*c = *a // shallow: Flags, FactTypes and ResultType stay shared with the original
		copyOf[a] = c
		originalOf[c] = a
		c.Requires = make([]*analysis.Analyzer, len(a.Requires))
		for i, req := range a.Requires {
			c.Requires[i] = guarded(req)
		}
		c.Run = recoveringRun(a, originalOf, stacks, after)
		return c
	}
	out := make([]*analysis.Analyzer, len(analyzers))
	for i, a := range analyzers {
		out[i] = guarded(a)
	}
	return out
}

// recoveringRun runs orig.Run on a view of pass that speaks in original
// analyzers, and converts a panic into an error.
func recoveringRun(orig *analysis.Analyzer, originalOf map[*analysis.Analyzer]*analysis.Analyzer, stacks bool, after func(*analysis.Pass, any)) func(*analysis.Pass) (any, error) {
	return func(pass *analysis.Pass) (result any, err error) {
		if after != nil {
			defer func() { after(pass, result) }()
		}
		defer func() {
			if r := recover(); r != nil {
				result = nil
				pe := &panicError{analyzer: orig.Name, pkg: pass.Pkg.Path(), value: r}
				if stacks {
					pe.stack = debug.Stack()
				}
				err = pe
			}
		}()
		view := *pass
		view.Analyzer = orig
		view.ResultOf = make(map[*analysis.Analyzer]any, len(pass.ResultOf))
		for a, res := range pass.ResultOf {
			if o, ok := originalOf[a]; ok {
				a = o
			}
			view.ResultOf[a] = res
		}
		return orig.Run(&view)
	}
}

// panicError is a recovered analyzer panic. Its message names the analyzer
// and the package because go vet prints analyzer errors without either.
type panicError struct {
	analyzer, pkg string
	value         any
	stack         []byte // nil unless asked for
}

func (e *panicError) Error() string {
	msg := fmt.Sprintf("internal error: analyzer %s panicked on package %s: %v", e.analyzer, e.pkg, e.value)
	if e.stack != nil {
		msg += "\n" + string(e.stack)
	}
	return msg
}
