package flow_test

import (
	"go/ast"
	"path/filepath"
	"testing"

	"github.com/hiplint/hiplint/internal/flow"
	"github.com/hiplint/hiplint/internal/testenv/require"
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
