package flow_test

import (
	"go/ast"
	"path/filepath"
	"testing"

	"github.com/hiplint/hiplint/internal/flow"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
)

// TestGettersFacts: Getters exports a ReturnsField fact for each getter.
func TestGettersFacts(t *testing.T) {
	dir, err := filepath.Abs("testdata")
	require.NoError(t, err)
	analysistest.Run(t, dir, flow.Getters, "getters/lib")
}

// getterProbe reports each call of a getter that GetterOf knows: an
// analyzer's own pass sees only its own facts on imported packages, so
// GetterOf must read Getters' facts through Getters.
var getterProbe = &analysis.Analyzer{
	Name:     "getterprobe",
	Doc:      "reports calls of getters",
	Requires: []*analysis.Analyzer{flow.Getters},
	Run: func(pass *analysis.Pass) (any, error) {
		for _, f := range pass.Files {
			ast.Inspect(f, func(n ast.Node) bool {
				if call, ok := n.(*ast.CallExpr); ok {
					if r, ok := flow.GetterOf(pass, flow.Callee(pass.TypesInfo, call)); ok {
						pass.Reportf(call.Pos(), "getter %s", r)
					}
				}
				return true
			})
		}
		return nil, nil
	},
}

// TestGetterOfImported: an analyzer that requires Getters sees another
// package's getters.
func TestGetterOfImported(t *testing.T) {
	dir, err := filepath.Abs("testdata")
	require.NoError(t, err)
	analysistest.Run(t, dir, getterProbe, "getters/user")
}

// locateProbe reports the location flow.WithGetters resolves each `_ = e`
// to.
var locateProbe = &analysis.Analyzer{
	Name:     "locateprobe",
	Doc:      "reports the locations of getter calls",
	Requires: []*analysis.Analyzer{flow.Getters},
	Run: func(pass *analysis.Pass) (any, error) {
		lc := flow.WithGetters(pass, flow.Locator{Info: pass.TypesInfo})
		for _, f := range pass.Files {
			ast.Inspect(f, func(n ast.Node) bool {
				if as, ok := n.(*ast.AssignStmt); ok && len(as.Rhs) == 1 {
					if l, ok := lc.Of(as.Rhs[0]); ok {
						pass.Reportf(as.Pos(), "loc %s", l)
					}
				}
				return true
			})
		}
		return nil, nil
	},
}

// TestWithGetters: a Locator with getters resolves a getter's call to
// what it returns, through receivers, arguments, nested getters and
// no-argument getters of package-level variables; other calls stay no
// location.
func TestWithGetters(t *testing.T) {
	dir, err := filepath.Abs("testdata")
	require.NoError(t, err)
	analysistest.Run(t, dir, locateProbe, "getters/locate")
}
