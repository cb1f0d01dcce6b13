package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
)

// TestXnackguardGuardsAreRecognized lints packages that use managed memory
// behind the guards of the importable package xnackguard (the ones the
// HL4002 and HL4004 pages show): Enabled, PageableMemoryAccess and
// SkipUnlessXNACK each guard what follows them, across the package
// boundary, and the unguarded twins are reported.
func TestXnackguardGuardsAreRecognized(t *testing.T) {
	t.Parallel()
	const dir = "cmd/hiplint/testdata/xnackguard/"
	res := hiplint(t, repoRoot, "./"+dir+"user", "./"+dir+"prog")
	assert.Equal(t, exitFindings, res.code)
	want := append(markedHazards(t, dir+"user/user_test.go"), markedHazards(t, dir+"prog/main.go")...)
	assert.Len(t, want, 2)
	assert.Equal(t, sortedMarks(want), marksOf(parseText(t, res.stdout)))
}

// TestXnackguardThroughReplace follows docs/install.md: a module of its own
// outside the checkout imports xnackguard through a replace directive,
// offline (GOPROXY=off: everything comes from the module cache), and
// hiplint sees its guards, as in the checkout.
func TestXnackguardThroughReplace(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	src := filepath.Join("testdata", "xnackguard", "user")
	for _, name := range []string{"user.go", "user_test.go"} {
		text := readFile(t, filepath.Join(src, name))
		text = strings.ReplaceAll(text, "${SRCDIR}/../../../../../testdata/include", filepath.Join(repoRoot, "testdata", "include"))
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644))
	}
	require.NoError(t, os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/user\n\ngo 1.22\n"), 0o644))
	env := append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOSUMDB=off")
	for _, args := range [][]string{
		{"mod", "edit", "-require=github.com/hiplint/hiplint@v0.0.0", "-replace=github.com/hiplint/hiplint=" + repoRoot},
		{"mod", "tidy"},
	} {
		res := runCmdIn(t, dir, env, "go", args...)
		require.Equal(t, 0, res.code, "go %v:\n%s", args, res.stderr)
	}
	gomod := readFile(t, filepath.Join(dir, "go.mod"))
	assert.Contains(t, gomod, "replace github.com/hiplint/hiplint => "+repoRoot)
	assert.Regexp(t, `(?m)^go 1\.26`, gomod, "the go line goes up to hiplint's, as docs/install.md says")

	res := runCmdIn(t, dir, env, hiplintBin, "./...")
	assert.Equal(t, exitFindings, res.code)
	want := markedHazards(t, "cmd/hiplint/testdata/xnackguard/user/user_test.go")
	require.Len(t, want, 1)
	got := marksOf(parseText(t, res.stdout))
	require.Len(t, got, 1, "only the unguarded test")
	assert.Equal(t, want[0].line, got[0].line)
	assert.Equal(t, want[0].id, got[0].id)
}
