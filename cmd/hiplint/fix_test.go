package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv"
	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
)

// fixtureModule copies testdata/fix/leak.go into a module of its own in a
// directory the test has to itself (fixtureSlot), with the fixture HIP
// header under include/, and returns the directory.
func fixtureModule(t *testing.T) string {
	t.Helper()
	dir := fixtureSlot(t)
	require.NoError(t, writeFixture(dir))
	return dir
}

// fixtureSlots are the directories fixtureSlot hands out.
var fixtureSlots testenv.Slots

// fixtureSlot returns an empty directory that no other test uses until this
// one ends; then the next test that asks gets it (testenv.Slots): a test
// that writes the fixture module as an earlier test wrote it, into the same
// directory, finds its cgo output and compile in the build cache (about a
// second of CPU each) instead of running cgo again.
func fixtureSlot(t *testing.T) string {
	t.Helper()
	return fixtureSlots.Get(t, testTmp)
}

// sharedFixtures holds the fixture modules that tests share, by their edits.
var sharedFixtures sync.Map // string (the edits) -> *sharedFixtureDir

type sharedFixtureDir struct {
	once sync.Once
	dir  string
	err  error
}

// sharedFixture returns the fixture module (fixtureModule) with leak.go
// edited as editLeak edits it, one copy per test binary for each set of
// edits, shared by the tests that make the same edits: the go command keys
// cgo's output on the package's directory, so each copy costs a cgo run
// and a compile of the package (about a second of CPU), and the result
// cache answers a run that another test made with the same flags. Only
// for tests that never change the module: a test that writes into it
// (-fix, a hiplint.toml, a file added) takes its own (fixtureModule,
// editLeak).
func sharedFixture(t *testing.T, pairs ...string) string {
	t.Helper()
	v, _ := sharedFixtures.LoadOrStore(strings.Join(pairs, "\x00"), new(sharedFixtureDir))
	d := v.(*sharedFixtureDir)
	d.once.Do(func() {
		d.dir, d.err = os.MkdirTemp(testTmp, "fixture-")
		if d.err == nil {
			d.err = writeFixture(d.dir, pairs...)
		}
	})
	require.NoError(t, d.err)
	return d.dir
}

// writeFixture writes the fixture module into dir with each old of pairs
// replaced by its new in leak.go (each must occur once).
func writeFixture(dir string, pairs ...string) error {
	src, err := os.ReadFile(filepath.Join("testdata", "fix", "leak.go"))
	if err != nil {
		return err
	}
	text := string(src)
	for i := 0; i < len(pairs); i += 2 {
		if n := strings.Count(text, pairs[i]); n != 1 {
			return fmt.Errorf("%q occurs %d times in leak.go", pairs[i], n)
		}
		text = strings.Replace(text, pairs[i], pairs[i+1], 1)
	}
	if err := os.WriteFile(filepath.Join(dir, "leak.go"), []byte(text), 0o644); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(dir, "include", "hip"), 0o755); err != nil {
		return err
	}
	for _, h := range []string{"hip_runtime_api.h", "hip_version.h"} { // the first includes the second
		data, err := os.ReadFile(filepath.Join(repoRoot, "testdata", "include", "hip", h))
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, "include", "hip", h), data, 0o644); err != nil {
			return err
		}
	}
	return os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/leak\n\ngo 1.26\n"), 0o644)
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
	dir := sharedFixture(t)
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
