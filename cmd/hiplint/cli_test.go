package main

import (
	"encoding/json"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/hiplint/hiplint/internal/headerless"
	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
)

// hipHeader is the runtime header that the fixtures and examples include.
const hipHeader = "hip/hip_runtime_api.h"

// headersNote returns what hiplint prints on standard error, and nothing
// else, for a run on packages that include the given runtime headers and are
// otherwise clean: where the C compiler of this test's environment finds
// some of them not (a machine without ROCm or CUDA), the note that cgo used
// hiplint's declarations of those; where it finds them all, nothing.
func headersNote(t *testing.T, included ...string) string {
	t.Helper()
	missing := headerless.Missing(os.Environ())
	var used []string
	for _, name := range headerless.Names {
		if slices.Contains(included, name) && slices.Contains(missing, name) {
			used = append(used, name)
		}
	}
	if len(used) == 0 {
		return ""
	}
	return "hiplint: note: the C compiler finds no <" + strings.Join(used, ">, <") +
		">; cgo used hiplint's declarations of the runtime API instead (-headers=system turns this off)\n"
}

func TestChecksListsEveryModuleBalanceCheck(t *testing.T) {
	t.Parallel()
	res := hiplint(t, ".", "checks")
	require.Equal(t, exitClean, res.code)
	for _, id := range []string{"HL2001", "HL2002", "HL2003", "HL2004"} {
		assert.Regexp(t, `(?m)^`+id+` +error +modulebalance +\S.*https://\S+/docs/checks/`+id+`\.md$`, res.stdout)
	}
}

func TestChecksJSON(t *testing.T) {
	t.Parallel()
	res := hiplint(t, ".", "checks", "-json")
	require.Equal(t, exitClean, res.code)
	var checks []struct {
		ID, Analyzer, Title, Severity, URL string
	}
	require.NoError(t, json.Unmarshal([]byte(res.stdout), &checks))
	ids := map[string]bool{}
	for _, c := range checks {
		ids[c.ID] = true
		assert.NotEmpty(t, c.Title, c.ID)
		assert.NotEmpty(t, c.Analyzer, c.ID)
		assert.Contains(t, []string{"error", "warning"}, c.Severity, c.ID)
		assert.Regexp(t, `/docs/checks/`+regexp.QuoteMeta(c.ID)+`\.md$`, c.URL)
	}
	for _, id := range []string{"HL2001", "HL2002", "HL2003", "HL2004"} {
		assert.True(t, ids[id], "missing %s", id)
	}
}

func TestVersion(t *testing.T) {
	t.Parallel()
	res := hiplint(t, ".", "version")
	require.Equal(t, exitClean, res.code)
	assert.Regexp(t, `^hiplint version \S+\n$`, res.stdout)
}

func TestHelpListsFlags(t *testing.T) {
	t.Parallel()
	res := hiplint(t, ".", "help")
	require.Equal(t, exitClean, res.code)
	for _, flag := range []string{"-json", "-sarif", "-format", "-fix", "-diff", "-tags", "-test", "-debug", "-modulebalance"} {
		assert.Contains(t, res.stdout, "\n  "+flag)
	}
	assert.Contains(t, res.stdout, "go vet -vettool=")
}

func TestBadFlagIsAUsageError(t *testing.T) {
	t.Parallel()
	res := hiplint(t, ".", "-no-such-flag", "./testdata/clean")
	assert.Equal(t, exitUsage, res.code)
	assert.Contains(t, res.stderr, "-no-such-flag")

	res = hiplint(t, ".", "-json", "-fix", "./testdata/clean")
	assert.Equal(t, exitUsage, res.code)
	assert.Contains(t, res.stderr, "-json cannot be combined")
}

// Only the exact subcommand words select a subcommand: anything else is a
// package pattern, and a pattern that matches nothing is an error.
func TestUnknownWordIsAPackagePattern(t *testing.T) {
	t.Parallel()
	res := hiplint(t, ".", "nosuchsubcommand")
	assert.Equal(t, exitError, res.code)
	assert.Contains(t, res.stderr, "nosuchsubcommand")
	assert.Empty(t, res.stdout)
}

func TestCleanPackageExitsZero(t *testing.T) {
	t.Parallel()
	res := hiplint(t, ".", "./testdata/clean")
	assert.Equal(t, exitClean, res.code)
	assert.Empty(t, res.stdout)
	assert.Equal(t, headersNote(t, hipHeader), res.stderr)
}

func TestAnalyzerFlagTurnsItOff(t *testing.T) {
	t.Parallel()
	// The module-balance examples have only module-balance findings.
	pkgs := []string{"./examples/kernelcache", "./examples/reload", "./examples/unloadorder"}
	res := hiplint(t, repoRoot, append([]string{"-modulebalance=false"}, pkgs...)...)
	assert.Equal(t, exitClean, res.code)
	assert.Empty(t, res.stdout)
	res = hiplint(t, repoRoot, append([]string{"-memcpysync"}, pkgs...)...)
	assert.Equal(t, exitClean, res.code, "naming one analyzer runs only that one")
	res = hiplint(t, repoRoot, pkgs...)
	assert.Equal(t, exitFindings, res.code)
}

func TestBrokenPackageIsReportedAndOthersAnalyzed(t *testing.T) {
	t.Parallel()
	const brokenError = `(?m)^hiplint: github.com/hiplint/hiplint/cmd/hiplint/testdata/broken: testdata/broken/broken.go:7:9: cannot use "not an int"`

	// With only clean packages beside it, the error decides: exit status 1.
	res := hiplint(t, ".", "./testdata/broken", "./testdata/clean")
	assert.Equal(t, exitError, res.code)
	assert.Regexp(t, brokenError, res.stderr)
	assert.Empty(t, res.stdout)

	// The other packages are still analyzed, and their findings win.
	res = hiplint(t, ".", "./testdata/broken", "../../examples/reload")
	assert.Equal(t, exitFindings, res.code)
	assert.Regexp(t, brokenError, res.stderr)
	assert.Contains(t, res.stdout, "(HL2001)")
}
