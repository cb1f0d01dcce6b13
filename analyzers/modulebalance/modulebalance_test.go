package modulebalance_test

import (
	"path/filepath"
	"testing"

	"github.com/hiplint/hiplint/analyzers/modulebalance"
	"golang.org/x/tools/go/analysis/analysistest"
)

func testdata() string {
	dir, err := filepath.Abs("../../testdata")
	if err != nil {
		panic(err)
	}
	return dir
}

func TestModuleBalance(t *testing.T) {
	analysistest.Run(t, testdata(), modulebalance.Analyzer, "modulebalance/...")
}

// TestMatrix runs the module-balance column of the construct matrix
// (docs/coverage.md): a hazard and its safe twin for every construct.
func TestMatrix(t *testing.T) {
	analysistest.Run(t, testdata(), modulebalance.Analyzer, "matrix/modules", "matrix/moduleslib")
}
