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

// TestLibraries runs the realistic multi-file libraries of
// testdata/src/libs/modulebalance (a JIT kernel cache, a model registry with
// hot reload, a plugin directory loader, a driver-style binding, each with
// a package that uses it): their hazards and the safe code around them.
func TestLibraries(t *testing.T) {
	analysistest.Run(t, testdata(), modulebalance.Analyzer, "libs/modulebalance/...")
}
