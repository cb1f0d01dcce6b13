package driver

import (
	"context"
	"fmt"
	"go/types"
	"runtime/debug"

	"github.com/hiplint/hiplint/internal/config"
	"github.com/hiplint/hiplint/internal/diag"
	"golang.org/x/tools/go/analysis"
)

// Guard returns copies of analyzers whose Run turns a panic into an error
// naming the analyzer and the package: cmd/hiplint's go vet mode uses it
// for -debug's stacks. Run guards the analyzers it runs itself (guard).
func Guard(analyzers []*analysis.Analyzer, stacks bool) []*analysis.Analyzer {
	return guard(analyzers, guardOptions{stacks: stacks})
}

// guardOptions say what guard adds to each analyzer's Run.
type guardOptions struct {
	// stacks: the error of a panic carries the goroutine's stack.
	stacks bool
	// keep marks each pass for diag.Report to pass on suppressed
	// diagnostics (diag.KeepSuppressed): the driver applies the directives.
	keep bool
	// override is the front end's configuration, attached to each pass
	// (config.Attach).
	override *config.Override
	// after, when not nil, is called with the checker's pass and the
	// result after each Run returns or panics (the releaser, memory.go).
	after func(*analysis.Pass, any)
	// ctx, when not nil, cancels the run between analyzers: once it is
	// done, every Run not yet started returns its error at once (one that
	// has started runs to its end; the checker cannot interrupt it).
	ctx context.Context
	// replay holds the packages (loaded from export data) whose cached
	// facts each analyzer exports instead of running (facts.go).
	replay map[*types.Package]*PackageFacts
}

// guard returns copies of analyzers whose Run turns a panic into an error
// naming the analyzer and the package. The checker runs each analyzer on
// its own goroutine and does not recover, so without this one analyzer's
// bug on one package would kill the whole run and hide every other finding.
// (hiplint's own analyzers contain their panics already, under every
// driver: analyzers.Suite; this covers any other analyzer a driver runs.)
//
// Everything the analyzers require is copied too, and each copy's Requires
// points at the copies, so the action graph is built from copies only. The
// analyzers themselves still look up ResultOf by the original pointers (for
// example inspect.Analyzer), so the guarded Run hands them a pass whose
// ResultOf is keyed by the originals. That pass is the run's own, so the
// options it carries (o.keep) are this run's and no other's.
func guard(analyzers []*analysis.Analyzer, o guardOptions) []*analysis.Analyzer {
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
		c.Run = recoveringRun(a, originalOf, o)
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
func recoveringRun(orig *analysis.Analyzer, originalOf map[*analysis.Analyzer]*analysis.Analyzer, o guardOptions) func(*analysis.Pass) (any, error) {
	return func(pass *analysis.Pass) (result any, err error) {
		if o.ctx != nil && o.ctx.Err() != nil {
			return nil, o.ctx.Err()
		}
		if pf := o.replay[pass.Pkg]; pf != nil {
			// Nothing to release (o.after): the package is no root,
			// and its result is a zero value, which nothing reads.
			if res, ok := replayResult(orig); ok {
				return res, replayFacts(pass, orig, pf)
			}
		}
		if o.after != nil {
			defer func() { o.after(pass, result) }()
		}
		defer func() {
			if r := recover(); r != nil {
				result = nil
				pe := &panicError{analyzer: orig.Name, pkg: pass.Pkg.Path(), value: r}
				if o.stacks {
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
		if o.keep {
			diag.KeepSuppressed(&view)
		}
		config.Attach(&view, o.override)
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
