package analyzers_test

import (
	"errors"
	"go/types"
	"testing"

	"github.com/hiplint/hiplint/analyzers"
	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
)

// TestSuiteContainsPanics: every analyzer that Suite and Candidates return
// turns a panic of its Run into an error naming the analyzer and the
// package, whichever driver runs it (go vet, golangci-lint and nogo do not
// recover). A pass without the results the analyzers require makes each of
// them panic.
func TestSuiteContainsPanics(t *testing.T) {
	for _, a := range append(analyzers.Suite(), analyzers.Candidates()...) {
		pass := &analysis.Pass{
			Analyzer: a,
			Pkg:      types.NewPackage("example.com/victim", "victim"),
			ResultOf: map[*analysis.Analyzer]any{},
		}
		var res any
		var err error
		require.NotPanics(t, func() { res, err = a.Run(pass) }, a.Name)
		assert.Nil(t, res)
		var pe *analyzers.PanicError
		require.True(t, errors.As(err, &pe), "%s: %v", a.Name, err)
		assert.Equal(t, a.Name, pe.Analyzer)
		assert.Equal(t, "example.com/victim", pe.Package)
		assert.Contains(t, err.Error(), "internal error: analyzer "+a.Name+" panicked on package example.com/victim")
		assert.Contains(t, string(pe.Stack), "goroutine ")
	}
}

// TestRequiredContainPanics: the analyzers the suite requires (the
// engine's) are contained too: given a pass without a package, those that
// panic (flow.Getters) return a *PanicError instead.
func TestRequiredContainPanics(t *testing.T) {
	for _, a := range analyzers.Required() {
		var err error
		require.NotPanics(t, func() {
			_, err = a.Run(&analysis.Pass{Analyzer: a, ResultOf: map[*analysis.Analyzer]any{}})
		}, a.Name)
		if err != nil {
			var pe *analyzers.PanicError
			require.True(t, errors.As(err, &pe), "%s: %v", a.Name, err)
			assert.Equal(t, a.Name, pe.Analyzer)
		}
	}
}

// TestPanicLeavesTheRunGoingOn: under the checker, as in every driver, one
// analyzer that panics on a package fails that action only; the suite's
// actions on the same packages complete.
func TestPanicLeavesTheRunGoingOn(t *testing.T) {
	cfg := &packages.Config{Mode: packages.LoadAllSyntax, Dir: "../testdata/src/shapes"}
	pkgs, err := packages.Load(cfg, "./...")
	require.NoError(t, err)
	suite := analyzers.Suite()
	// The first analyzer of the suite, made to panic on one package only:
	// the wrapper installed at init is what recovers.
	victim := pkgs[0].Types.Path()
	orig := suite[0].Run
	suite[0].Run = func(pass *analysis.Pass) (any, error) {
		if pass.Pkg.Path() == victim {
			panic("boom")
		}
		return orig(pass)
	}
	defer func() { suite[0].Run = orig }()
	contained := analyzers.Contain(suite[0])
	g, err := checker.Analyze(append([]*analysis.Analyzer{contained}, suite[1:]...), pkgs, nil)
	require.NoError(t, err)
	failed := 0
	for act := range g.All() {
		if act.Err == nil {
			continue
		}
		failed++
		assert.Equal(t, suite[0].Name, act.Analyzer.Name)
		assert.Equal(t, victim, act.Package.Types.Path())
		assert.Contains(t, act.Err.Error(), "panicked on package "+victim+": boom")
	}
	assert.Equal(t, 1, failed)
}
