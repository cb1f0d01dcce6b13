package xnack_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/hiplint/hiplint/analyzers/xnack"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
)

func testdata() string {
	dir, err := filepath.Abs("../../testdata")
	if err != nil {
		panic(err)
	}
	return dir
}

func TestXNACK(t *testing.T) {
	analysistest.Run(t, testdata(), xnack.Analyzer, "xnack/...")
}

func TestChecks(t *testing.T) {
	ids := map[string]bool{}
	for _, c := range xnack.Checks {
		assert.False(t, ids[c.ID], "duplicate %s", c.ID)
		ids[c.ID] = true
		assert.Equal(t, "xnack", c.Analyzer)
		assert.NotEmpty(t, c.Title)
		_, err := os.Stat(filepath.Join("../../docs/checks", c.ID+".md"))
		assert.NoError(t, err, "every check has a docs page")
	}
	require.NoError(t, analysis.Validate([]*analysis.Analyzer{xnack.Analyzer}))
}

// TestRelated checks what the want comments cannot: categories, URLs and the
// related positions that point from the entry point to each use.
func TestRelated(t *testing.T) {
	results := analysistest.Run(t, testdata(), xnack.Analyzer, "xnack/progunguarded")
	require.Len(t, results, 1)
	byID := map[string]analysis.Diagnostic{}
	for _, d := range results[0].Diagnostics {
		byID[d.Category] = d
	}
	require.Len(t, byID, 2)
	sys := byID["HL4001"]
	assert.Equal(t, "https://github.com/hiplint/hiplint/blob/main/docs/checks/HL4001.md", sys.URL)
	var msgs []string
	for _, r := range sys.Related {
		msgs = append(msgs, r.Message)
	}
	assert.Equal(t, []string{
		"C.malloc memory (buf) passed to hipModuleLaunchKernel in LaunchMalloc",
		"Go memory (p) passed to hipLaunchKernel in LaunchGoSlice",
	}, msgs)
	fset := results[0].Action.Package.Fset
	for _, r := range sys.Related {
		assert.Contains(t, fset.Position(r.Pos).Filename, "kernels.go", "related positions point into the library")
	}
	require.Contains(t, byID, "HL4002")
	assert.Len(t, byID["HL4002"].Related, 1)
}
