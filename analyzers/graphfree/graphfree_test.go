package graphfree_test

import (
	"path/filepath"
	"testing"

	"github.com/hiplint/hiplint/analyzers/graphfree"
	"golang.org/x/tools/go/analysis/analysistest"
)

func testdata(t *testing.T) string {
	dir, err := filepath.Abs("../../testdata")
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestGraphFree(t *testing.T) {
	analysistest.Run(t, testdata(t), graphfree.Analyzer, "graphfree/...")
}
