package xnack_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hiplint/hiplint/analyzers/xnack"
	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
	"github.com/hiplint/hiplint/internal/testenv/sharedrun"
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

// fixtures is one analysistest run over the fixtures of TestXNACK,
// TestRelated, TestParamFlow and TestMatrix: each checks its own packages'
// want comments and results.
var fixtures = &sharedrun.Run{Dir: testdata(), Analyzer: xnack.Analyzer, Patterns: []string{"xnack/...", "matrix/xnack", "matrix/xnacklib", "libs/xnack/..."}}

func TestXNACK(t *testing.T) {
	fixtures.Check(t, "xnack/...")
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
	results := fixtures.Check(t, "xnack/progunguarded")
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

// discard collects nothing: the candidate analyzer reports more than the
// want comments (written for the lint suite) expect.
type discard struct{}

func (discard) Errorf(string, ...any) {}

// TestParamFlow checks the related positions of a use through a parameter,
// and candidate mode: guards do not count there, so the guarded calls of
// TestSilent are reported, and the calls that pass device, pinned or only
// copied or stored memory still are not.
func TestParamFlow(t *testing.T) {
	results := fixtures.Check(t, "xnack/paramlaunchprog")
	require.Len(t, results, 1)
	var main *analysis.Diagnostic
	for i, d := range results[0].Diagnostics {
		if strings.HasPrefix(d.Message, "main reaches") {
			main = &results[0].Diagnostics[i]
		}
	}
	require.NotNil(t, main)
	var msgs []string
	for _, r := range main.Related {
		msgs = append(msgs, r.Message)
	}
	assert.Equal(t, []string{
		"C.malloc memory (p) passed to fill, which hands it to hipModuleLaunchKernel in FillSystem",
		"Go memory (unsafe.Pointer(&data[0])) passed to Fill, which hands it on to fill, which hands it to hipModuleLaunchKernel",
	}, msgs, "the guarded call in guarded() is no use")

	byTest := map[string]analysis.Diagnostic{}
	for _, r := range analysistest.Run(discard{}, testdata(), xnack.Candidates, "xnack/paramlaunch") {
		for _, d := range r.Diagnostics {
			name, _, _ := strings.Cut(d.Message, " ")
			byTest[name] = d
		}
	}
	assert.Contains(t, byTest, "TestFillSystemSkip")
	assert.Contains(t, byTest, "TestLibSkip")
	require.Contains(t, byTest, "TestSilent")
	msgs = nil
	for _, r := range byTest["TestSilent"].Related {
		msgs = append(msgs, r.Message)
	}
	assert.Equal(t, []string{
		"C.malloc memory passed to fillGuarded, which hands it on to fill, which hands it to hipModuleLaunchKernel in FillGuardedSystem",
		"C.malloc memory (p) passed to fill, which hands it to hipModuleLaunchKernel in FillCallerGuarded",
		"C.malloc memory passed to FillGuarded, which hands it on to Fill, which hands it to hipModuleLaunchKernel in LibGuarded",
		"Go memory (unsafe.Pointer(&data[0])) passed to FillGuarded, which hands it on to fill, which hands it to hipModuleLaunchKernel",
	}, msgs)
}

// TestMatrix runs the XNACK column of the construct matrix
// (docs/coverage.md): a hazard and its safe twin for every construct.
func TestMatrix(t *testing.T) {
	fixtures.Check(t, "matrix/xnack", "matrix/xnacklib")
}

// TestLibraries runs the realistic multi-file libraries of
// testdata/src/libs/xnack (a unified-memory batch loader with a capability
// struct computed once, its tests and a command).
func TestLibraries(t *testing.T) {
	fixtures.Check(t, "libs/xnack/...")
}
