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
