package matrix

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
)

var update = flag.Bool("update", false, "rewrite docs/coverage.md")

const root = "../.."

// TestCoverageDoc regenerates docs/coverage.md from the markers and fails
// when it is stale, when a marker breaks the rules, or when a cell of the
// matrix is not accounted for.
func TestCoverageDoc(t *testing.T) {
	m, err := Read(root)
	require.NoError(t, err)
	assert.Empty(t, m.Problems, "markers that break the rules")
	doc := m.Doc()
	path := filepath.Join(root, "docs", "coverage.md")
	if *update {
		require.NoError(t, os.WriteFile(path, []byte(doc), 0o644))
	}
	got, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, doc, string(got), "docs/coverage.md is stale: go test ./internal/matrix -run TestCoverageDoc -update")
	assert.Empty(t, m.Missing(), "cells with no hazard and twin, gap and twin, or n/a")
}

func TestRulesOfMarkers(t *testing.T) {
	dir := t.TempDir()
	fam := filepath.Join(dir, "testdata", "src", "matrix", "copysync")
	require.NoError(t, os.MkdirAll(fam, 0o755))
	src := `package copysync

//matrix:hazard call-direct
func h() {
	_ = 1 // want "x"
}

//matrix:twin call-direct
func tw() {
	_ = 1 // want "y"
}

//matrix:hazard call-direct
func noWant() {}

//matrix:twin call-direct
func tw2() {} // want tw2:"unloads\\[0\\]"

//matrix:gap goto: not yet
func gapOK() {}

//matrix:hazard no-such-row
func unknown() {}

//matrix:gap goto
func gapNoWhy() {}

//matrix:twin goto
func gapTwin() {}

//matrix:na range-int: no loop here

//matrix:hazard call-method-value
func oneLine() { _ = 1 } // want "z"
`
	require.NoError(t, os.WriteFile(filepath.Join(fam, "a.go"), []byte(src), 0o644))
	m, err := Read(dir)
	require.NoError(t, err)
	joined := strings.Join(m.Problems, "\n")
	assert.Contains(t, joined, "twin tw has a // want")
	assert.Contains(t, joined, "hazard noWant has no // want")
	assert.Contains(t, joined, `unknown row "no-such-row"`)
	assert.Contains(t, joined, "gap without a reason")
	assert.Len(t, m.Problems, 4)
	assert.Equal(t, "covered", m.Cell("call-direct", "copysync").State())
	assert.Equal(t, "gap", m.Cell("goto", "copysync").State())
	assert.Equal(t, "na", m.Cell("range-int", "copysync").State())
	assert.Len(t, m.Cell("call-method-value", "copysync").Hazards, 1, "a one-line hazard with its want after the brace")
	assert.Equal(t, "missing", m.Cell("call-direct", "xnack").State())
	assert.Contains(t, m.Missing(), "call-direct × xnack")
	doc := m.Doc()
	assert.Contains(t, doc, "[hazard](../testdata/src/matrix/copysync/a.go#L4) · [twin](../testdata/src/matrix/copysync/a.go#L17)")
	assert.Contains(t, doc, "n/a: no loop here")
	assert.Contains(t, doc, "**gap**: not yet ([code](../testdata/src/matrix/copysync/a.go#L20))")
}
