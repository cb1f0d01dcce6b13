package modulebalance_test

import (
	"path/filepath"
	"testing"

	"github.com/hiplint/hiplint/analyzers/modulebalance"
	"github.com/hiplint/hiplint/internal/testenv/sharedrun"
)

func testdata() string {
	dir, err := filepath.Abs("../../testdata")
	if err != nil {
		panic(err)
	}
	return dir
}

// fixtures is one analysistest run over the fixtures of TestModuleBalance
// and TestMatrix: each checks its own packages' want comments.
var fixtures = &sharedrun.Run{Dir: testdata(), Analyzer: modulebalance.Analyzer, Patterns: []string{"modulebalance/...", "matrix/modules", "matrix/moduleslib", "libs/modulebalance/..."}}

func TestModuleBalance(t *testing.T) {
	fixtures.Check(t, "modulebalance/...")
}

// TestMatrix runs the module-balance column of the construct matrix
// (docs/coverage.md): a hazard and its safe twin for every construct.
func TestMatrix(t *testing.T) {
	fixtures.Check(t, "matrix/modules", "matrix/moduleslib")
}

// TestLibraries runs the realistic multi-file libraries of
// testdata/src/libs/modulebalance (a JIT kernel cache, a model registry with
// hot reload, a plugin directory loader, a driver-style binding, each with
// a package that uses it): their hazards and the safe code around them.
func TestLibraries(t *testing.T) {
	fixtures.Check(t, "libs/modulebalance/...")
}
