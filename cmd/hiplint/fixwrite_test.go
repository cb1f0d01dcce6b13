package main

import (
	"crypto/sha256"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
)

// Issue 16, items 1, 2, 7 and 13: what -fix, -diff, -json and -sarif read
// and write.

// A //line directive can name any file. Before the fix, -json, -sarif,
// -fix and -diff read it whole: /dev/zero never ends, a FIFO never opens.
func TestLineDirectiveNamingADeviceOrFIFO(t *testing.T) {
	t.Parallel()
	fifo := filepath.Join(t.TempDir(), "fifo")
	require.NoError(t, syscall.Mkfifo(fifo, 0o600))
	for _, target := range []string{"/dev/zero", fifo} {
		dir := editLeak(t, "// Launch loads", "//line "+target+":1\n// Launch loads")
		before := readFile(t, filepath.Join(dir, "leak.go"))
		for _, args := range [][]string{{"-json"}, {"-sarif"}, {"-fix"}, {"-diff"}} {
			res := hiplint(t, dir, append(args, "./...")...)
			assert.Equal(t, exitFindings, res.code, "%s %v", target, args)
			assert.Contains(t, res.stdout+res.stderr, "HL2001", "%s %v: the finding is still reported", target, args)
		}
		assert.Equal(t, before, readFile(t, filepath.Join(dir, "leak.go")), "nothing was fixed in a file the finding is not in")
	}
}

// Before the fix, -fix said "applied 1 of 1 suggested fixes" about a file it
// could not write, printed no finding and exited 1.
func TestFixOnAReadOnlyFileKeepsItsFinding(t *testing.T) {
	t.Parallel()
	dir := fixtureModule(t)
	file := filepath.Join(dir, "leak.go")
	before := readFile(t, file)
	require.NoError(t, os.Chmod(file, 0o444))

	res := hiplint(t, dir, "-fix", "./...")
	assert.Equal(t, exitFindings, res.code, "the finding is still there")
	assert.Contains(t, res.stdout, "leak.go:28:18: module m loaded by hipModuleLoadData is not unloaded")
	assert.Contains(t, res.stderr, "hiplint: leak.go: not fixed: ")
	assert.Contains(t, res.stderr, "read-only")
	assert.Contains(t, res.stderr, "applied 0 of 1 suggested fixes")
	assert.Equal(t, before, readFile(t, file))
	info, err := os.Stat(file)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o444), info.Mode().Perm())
}

// Before the fix, -fix wrote through a symbolic link to a file outside the
// module.
func TestFixRefusesALinkOutOfTheModule(t *testing.T) {
	t.Parallel()
	dir := fixtureModule(t)
	outside := filepath.Join(t.TempDir(), "leak.go")
	require.NoError(t, os.Rename(filepath.Join(dir, "leak.go"), outside))
	require.NoError(t, os.Symlink(outside, filepath.Join(dir, "leak.go")))
	before := readFile(t, outside)

	res := hiplint(t, dir, "-fix", "./...")
	assert.Equal(t, exitFindings, res.code)
	assert.Contains(t, res.stdout, "(HL2001)")
	assert.Contains(t, res.stderr, "is a symbolic link to "+outside)
	assert.Equal(t, before, readFile(t, outside))

	// A link that stays inside the module is followed: the file it names is
	// fixed and the link stays a link.
	dir = fixtureModule(t)
	require.NoError(t, os.Mkdir(filepath.Join(dir, "real"), 0o755))
	require.NoError(t, os.Rename(filepath.Join(dir, "leak.go"), filepath.Join(dir, "real", "leak.go.txt")))
	require.NoError(t, os.Symlink(filepath.Join("real", "leak.go.txt"), filepath.Join(dir, "leak.go")))
	res = hiplint(t, dir, "-fix", "./...")
	assert.Equal(t, exitClean, res.code)
	assert.Equal(t, readFile(t, filepath.Join("testdata", "fix", "leak.go.golden")), readFile(t, filepath.Join(dir, "real", "leak.go.txt")))
	info, err := os.Lstat(filepath.Join(dir, "leak.go"))
	require.NoError(t, err)
	assert.Equal(t, os.ModeSymlink, info.Mode().Type())
}

// Before the fix, -fix wrote the file in place: a write that failed half
// way (a full disk) left it truncated. Not parallel: it replaces writeData.
func TestWriteFileAtomicLeavesTheFileWholeOnFailure(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "a.go")
	require.NoError(t, os.WriteFile(file, []byte("package a\n\nvar old = 1\n"), 0o640))
	require.NoError(t, os.Chmod(file, 0o640))

	saved := writeData
	t.Cleanup(func() { writeData = saved })
	full := errors.New("no space left on device")
	writeData = func(w io.Writer, data []byte) error {
		w.Write(data[:len(data)/2])
		return full
	}
	analyzed := sha256.Sum256([]byte("package a\n\nvar old = 1\n"))
	err := writeFileAtomic(file, analyzed, []byte("package a\n\nvar fixed = 2\n"), nil)
	assert.ErrorIs(t, err, full)
	assert.Equal(t, "package a\n\nvar old = 1\n", readFile(t, file), "the old content, whole")
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Len(t, entries, 1, "no temporary file left behind")

	writeData = saved
	require.NoError(t, writeFileAtomic(file, analyzed, []byte("package a\n\nvar fixed = 2\n"), nil))
	assert.Equal(t, "package a\n\nvar fixed = 2\n", readFile(t, file))
	info, err := os.Stat(file)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o640), info.Mode().Perm(), "the mode is kept")
	entries, err = os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, entries, 1)
	assert.False(t, strings.Contains(entries[0].Name(), "hiplint"))
}
