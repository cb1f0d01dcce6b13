package analyzers_test

import (
	"testing"

	"github.com/hiplint/hiplint/analyzers"
	"github.com/hiplint/hiplint/internal/testenv/require"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
)

// TestTypeShapesDoNotCrash runs every analyzer, in lint and candidate mode,
// alone and together, over the Go type shapes that once made three of them
// recurse without end (issue 16). A fatal stack overflow cannot be
// recovered: if a recursion is unbounded again, this test kills the test
// binary.
func TestTypeShapesDoNotCrash(t *testing.T) {
	cfg := &packages.Config{Mode: packages.LoadAllSyntax, Dir: "../testdata/src/shapes", Tests: false}
	pkgs, err := packages.Load(cfg, "./...")
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(pkgs), 2)
	for _, p := range pkgs {
		require.Empty(t, p.Errors, p.PkgPath)
	}
	runs := map[string][]*analysis.Analyzer{
		"suite":      analyzers.Suite(),
		"candidates": analyzers.Candidates(),
	}
	for _, a := range append(analyzers.Suite(), analyzers.Candidates()...) {
		runs[a.Name+"-alone"] = []*analysis.Analyzer{a}
	}
	for name, as := range runs {
		t.Run(name, func(t *testing.T) {
			g, err := checker.Analyze(as, pkgs, nil)
			require.NoError(t, err)
			for act := range g.All() {
				require.NoError(t, act.Err, "%s on %s", act.Analyzer.Name, act.Package.PkgPath)
			}
		})
	}
}
