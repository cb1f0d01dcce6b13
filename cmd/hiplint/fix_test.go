package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fixtureModule copies testdata/fix/leak.go into a module of its own in a
// temporary directory, with the fixture HIP header under include/, and
// returns the directory.
func fixtureModule(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	copyFile(t, filepath.Join("testdata", "fix", "leak.go"), filepath.Join(dir, "leak.go"))
	for _, h := range []string{"hip_runtime_api.h", "hip_version.h"} { // the first includes the second
		copyFile(t, filepath.Join(repoRoot, "testdata", "include", "hip", h), filepath.Join(dir, "include", "hip", h))
	}
	require.NoError(t, os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/leak\n\ngo 1.26\n"), 0o644))
	return dir
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	data, err := os.ReadFile(from)
	require.NoError(t, err)
	require.NoError(t, os.MkdirAll(filepath.Dir(to), 0o755))
	require.NoError(t, os.WriteFile(to, data, 0o644))
}

func readFile(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(name)
	require.NoError(t, err)
	return string(data)
}

func TestDiffPrintsTheFixAndChangesNothing(t *testing.T) {
	t.Parallel()
	dir := fixtureModule(t)
	before := readFile(t, filepath.Join(dir, "leak.go"))

	res := hiplint(t, dir, "-diff", "./...")
	assert.Equal(t, exitFindings, res.code, "the finding is still there")
	assert.Contains(t, res.stdout, "--- leak.go\n+++ leak.go\n")
	assert.Contains(t, res.stdout, "\n \t\treturn err\n \t}\n+\tdefer C.hipModuleUnload(m)\n \tvar f C.hipFunction_t\n")
	assert.Equal(t, before, readFile(t, filepath.Join(dir, "leak.go")))
}

func TestFixMatchesGolden(t *testing.T) {
	t.Parallel()
	dir := fixtureModule(t)

	res := hiplint(t, dir, "-fix", "./...")
	assert.Equal(t, exitClean, res.code, "every finding was fixed")
	assert.Equal(t, readFile(t, filepath.Join("testdata", "fix", "leak.go.golden")), readFile(t, filepath.Join(dir, "leak.go")))

	res = hiplint(t, dir, "./...")
	assert.Equal(t, exitClean, res.code, "the fixed package is clean")
}
