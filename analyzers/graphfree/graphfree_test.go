package graphfree_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hiplint/hiplint/analyzers/graphfree"
	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
	"github.com/hiplint/hiplint/internal/testenv/sharedrun"
)

func testdata() string {
	dir, err := filepath.Abs("../../testdata")
	if err != nil {
		panic(err)
	}
	return dir
}

// fixtures is one analysistest run over the fixtures of TestGraphFree and
// TestMatrix: each checks its own packages' want comments.
var fixtures = &sharedrun.Run{Dir: testdata(), Analyzer: graphfree.Analyzer, Patterns: []string{"graphfree/...", "matrix/graphfree"}}

func TestGraphFree(t *testing.T) {
	fixtures.Check(t, "graphfree/...")
}

// Every check has its ID, this analyzer's name and a documentation page
// that names it.
func TestChecksDocumented(t *testing.T) {
	ids := []string{"HL3001", "HL3002", "HL3003", "HL3004"}
	require.Len(t, graphfree.Checks, len(ids))
	for i, c := range graphfree.Checks {
		assert.Equal(t, ids[i], c.ID)
		assert.Equal(t, graphfree.Analyzer.Name, c.Analyzer)
		assert.True(t, strings.HasSuffix(c.URL(), "/docs/checks/"+c.ID+".md"), c.URL())
		page, err := os.ReadFile(filepath.Join("..", "..", "docs", "checks", c.ID+".md"))
		require.NoError(t, err, c.ID)
		assert.True(t, strings.HasPrefix(string(page), "# "+c.ID+": "+c.Title+"\n"), "%s page title", c.ID)
		for _, section := range []string{"## The rule", "## Why", "## Examples", "## Since which version", "## CUDA twins", "## Suppressing a finding", "## How runtimecheck confirms it"} {
			assert.Contains(t, string(page), section, c.ID)
		}
	}
}

func TestFactStrings(t *testing.T) {
	assert.Equal(t, "returnsMemory[0.ptr=device:hipMalloc 1=graph:hipGraphAddMemAllocNode]",
		(&graphfree.ReturnsMemory{Allocs: []graphfree.ReturnedAlloc{
			{Result: 0, Path: ".ptr", Kind: graphfree.KindDevice, API: "hipMalloc"},
			{Result: 1, Kind: graphfree.KindGraph, API: "hipGraphAddMemAllocNode"},
		}}).String())
	assert.Equal(t, "freesParam[-1.buf 2]",
		(&graphfree.FreesParam{Params: []graphfree.ParamPath{{Param: -1, Path: ".buf"}, {Param: 2}}}).String())
	assert.Equal(t, "capturesStream(begins[-1.h] ends[])",
		(&graphfree.CapturesStream{Begins: []graphfree.ParamPath{{Param: -1, Path: ".h"}}}).String())
}

// TestMatrix runs the graph-free column of the construct matrix
// (docs/coverage.md): a hazard and its safe twin for every construct.
func TestMatrix(t *testing.T) {
	fixtures.Check(t, "matrix/graphfree")
}

// TestGraphExecutor runs a graph executor library and its user
// (testdata/src/graphfree/gexec, gexecapp).
func TestGraphExecutor(t *testing.T) {
	fixtures.Check(t, "graphfree/gexec", "graphfree/gexecapp")
}
