package main

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
	"golang.org/x/tools/go/analysis"
)

// Issue 29, item 1 and item 6's first point: -fix never corrupts a file.
// It edits only the bytes it analyzed, only where an edit was made (not
// where a //line directive points), and keeps the file's owner, mode,
// hard links and line endings.

func golden(t *testing.T) string {
	t.Helper()
	return readFile(t, filepath.Join("testdata", "fix", "leak.go.golden"))
}

// Before the fix, two -fix runs at once on one file both applied their
// edit, each to whatever the file held when it wrote: the deferred unload
// twice (which hiplint flags itself), each run saying "applied 1 of 1".
func TestConcurrentFixRunsApplyOnce(t *testing.T) {
	t.Parallel()
	for round := range 3 {
		dir := fixtureModule(t)
		var cmds [2]*exec.Cmd
		var outs [2]bytes.Buffer
		for i := range cmds {
			cmds[i] = exec.Command(hiplintBin, "-fix", "./...")
			cmds[i].Dir = dir
			cmds[i].Stdout, cmds[i].Stderr = &outs[i], &outs[i]
			require.NoError(t, cmds[i].Start())
		}
		applied := 0
		for i, cmd := range cmds {
			err := cmd.Wait()
			code := cmd.ProcessState.ExitCode()
			t.Logf("round %d, run %d: exit %d, %v, %s\n%s", round, i, code, err, cpuTime(cmd.ProcessState), outs[i].String())
			switch out := outs[i].String(); {
			case code == exitClean && strings.Contains(out, "applied 1 of 1 suggested fixes"):
				applied++
			case code == exitClean:
				// Started after the other run wrote: nothing to fix.
			case code == exitFindings:
				// Analyzed the old content, found the file changed.
				assert.Contains(t, out, "changed since hiplint analyzed it", "round %d, run %d", round, i)
			default:
				t.Errorf("round %d, run %d: exit %d", round, i, code)
			}
		}
		assert.LessOrEqual(t, applied, 1, "round %d: only one run applies the fix", round)
		assert.Equal(t, golden(t), readFile(t, filepath.Join(dir, "leak.go")), "round %d", round)
	}
}

// A file saved by an editor after the analysis and before -fix reads it
// for its edits. Before the fix, the edits went into the new text at the
// old offsets. Not parallel: the hook runs in this process.
func TestFixSkipsAFileChangedAfterTheAnalysis(t *testing.T) {
	dir := fixtureModule(t)
	file := filepath.Join(dir, "leak.go")
	saved := strings.Replace(readFile(t, file), "package leak\n", "package leak\n\n// Saved meanwhile.\n", 1)

	var stdout, stderr bytes.Buffer
	p := &program{analyzers: []*analysis.Analyzer{loadMarker}, stdout: &stdout, stderr: &stderr, dir: dir}
	p.hooks.analyzed = func() { require.NoError(t, os.WriteFile(file, []byte(saved), 0o644)) }
	code := p.main([]string{"-fix", "./..."})
	t.Logf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout.String(), stderr.String())

	assert.Equal(t, exitFindings, code, "the finding is left")
	assert.Regexp(t, `^leak.go:28:\d+: module load \(TEST1\)\n`, stdout.String())
	assert.Contains(t, stderr.String(), `fix "mark the load" skipped: leak.go changed since hiplint analyzed it; run hiplint -fix again`)
	assert.Contains(t, stderr.String(), "applied 0 of 1 suggested fixes to 0 files")
	assert.Equal(t, saved, readFile(t, file), "the saved text, untouched")
}

// A file changed while -fix writes it: between the first check of its
// content and the rename (or, for a file with hard links, the rewrite).
// Not parallel: the hook runs in this process.
func TestFixSkipsAFileChangedWhileItIsWritten(t *testing.T) {
	for _, links := range []int{1, 2} {
		dir := fixtureModule(t)
		file := filepath.Join(dir, "leak.go")
		if links == 2 {
			require.NoError(t, os.Link(file, filepath.Join(t.TempDir(), "leak.go.link")))
		}
		saved := strings.Replace(readFile(t, file), "package leak\n", "package leak\n\n// Saved meanwhile.\n", 1)

		var stdout, stderr bytes.Buffer
		p := &program{analyzers: []*analysis.Analyzer{loadMarker}, stdout: &stdout, stderr: &stderr, dir: dir}
		p.hooks.writing = func(name string) {
			assert.Equal(t, file, name)
			require.NoError(t, os.WriteFile(file, []byte(saved), 0o644)) // in place: the same inode
		}
		code := p.main([]string{"-fix", "./..."})
		t.Logf("links %d: exit %d\nstdout:\n%s\nstderr:\n%s", links, code, stdout.String(), stderr.String())

		assert.Equal(t, exitFindings, code, "links %d: the finding is left", links)
		assert.Regexp(t, `^leak.go:28:\d+: module load \(TEST1\)\n`, stdout.String())
		assert.Contains(t, stderr.String(), "hiplint: leak.go: not fixed: the file changed since hiplint analyzed it; run hiplint -fix again", "links %d", links)
		assert.Contains(t, stderr.String(), "applied 0 of 1 suggested fixes to 0 files")
		assert.Equal(t, saved, readFile(t, file), "links %d: the saved text, untouched", links)
		entries, err := os.ReadDir(dir)
		require.NoError(t, err)
		for _, e := range entries {
			assert.NotContains(t, e.Name(), ".hiplint-", "no temporary file left behind")
		}
	}
}

// A //line directive names another line of the file, or another file of
// the package. Before the fix, -fix put the edit where the directive
// pointed: into the cgo preamble, or into the other file (exit 0, the
// package no longer compiled).
func TestFixIgnoresLineDirectives(t *testing.T) {
	t.Parallel()
	const comment = "// Launch loads"
	t.Run("same file", func(t *testing.T) {
		t.Parallel()
		dir := fixtureModule(t)
		dir = editLeakIn(t, dir, comment, "//line "+filepath.Join(dir, "leak.go")+":3\n"+comment)
		before := readFile(t, filepath.Join(dir, "leak.go"))
		res := hiplint(t, dir, "-fix", "./...")
		assert.Equal(t, exitFindings, res.code, "the finding is left")
		assert.Contains(t, res.stdout, "(HL2001)")
		assert.Contains(t, res.stderr, "leak.go has //line directives of its own")
		assert.Equal(t, before, readFile(t, filepath.Join(dir, "leak.go")))
	})
	t.Run("other file", func(t *testing.T) {
		t.Parallel()
		dir := fixtureModule(t)
		other := filepath.Join(dir, "other.go")
		otherText := "package leak\n\n// Other is another file of the package.\nfunc Other() {\n}\n\n// More of it.\nvar More = 1\n"
		require.NoError(t, os.WriteFile(other, []byte(otherText), 0o644))
		dir = editLeakIn(t, dir, comment, "//line "+other+":1\n"+comment)
		before := readFile(t, filepath.Join(dir, "leak.go"))
		res := hiplint(t, dir, "-fix", "./...")
		assert.Equal(t, exitFindings, res.code, "the finding is left")
		assert.Contains(t, res.stdout, "(HL2001)")
		assert.Contains(t, res.stderr, "hiplint does not follow it")
		assert.Equal(t, before, readFile(t, filepath.Join(dir, "leak.go")))
		assert.Equal(t, otherText, readFile(t, other))
	})
	// cgo fails (an #error, which synthesis cannot repair, as it repairs a
	// missing header): the package is analyzed at tier 3, from leak.go
	// itself, and the edit lands where it was made.
	t.Run("tier 3", func(t *testing.T) {
		t.Parallel()
		dir := fixtureModule(t)
		const include = "#include <hip/hip_runtime_api.h>\n"
		const failing = "#error this C code does not build here\n"
		dir = editLeakIn(t, dir, include, include+failing,
			comment, "//line "+filepath.Join(dir, "leak.go")+":3\n"+comment)
		res := hiplint(t, dir, "-fix", "./...")
		assert.Equal(t, exitClean, res.code)
		assert.Contains(t, res.stderr, "applied 1 of 1 suggested fixes")
		want := strings.Replace(golden(t), include, include+failing, 1)
		want = strings.Replace(want, comment, "//line "+filepath.Join(dir, "leak.go")+":3\n"+comment, 1)
		assert.Equal(t, want, readFile(t, filepath.Join(dir, "leak.go")))
	})
}

// editLeakIn edits leak.go of the fixture module dir as editLeak does.
func editLeakIn(t *testing.T, dir string, pairs ...string) string {
	t.Helper()
	file := filepath.Join(dir, "leak.go")
	src := readFile(t, file)
	for i := 0; i < len(pairs); i += 2 {
		require.Equal(t, 1, strings.Count(src, pairs[i]), "%q", pairs[i])
		src = strings.Replace(src, pairs[i], pairs[i+1], 1)
	}
	require.NoError(t, os.WriteFile(file, []byte(src), 0o644))
	return dir
}

// Before the fix, -fix as root gave a file of another user to root, and
// kept only its permission bits.
func TestFixKeepsOwnerAndMode(t *testing.T) {
	t.Parallel()
	dir := fixtureModule(t)
	file := filepath.Join(dir, "leak.go")
	require.NoError(t, os.Chmod(file, 0o640|os.ModeSetgid))
	uid, gid := os.Getuid(), os.Getgid()
	if os.Geteuid() == 0 {
		uid, gid = 4321, 8765 // someone else
		require.NoError(t, os.Chown(file, uid, gid))
		require.NoError(t, os.Chmod(file, 0o640|os.ModeSetgid)) // chown cleared set-group-ID
	}

	res := hiplint(t, dir, "-fix", "./...")
	assert.Equal(t, exitClean, res.code)
	assert.Equal(t, golden(t), readFile(t, file))
	info, err := os.Stat(file)
	require.NoError(t, err)
	assert.Equal(t, 0o640|os.ModeSetgid, info.Mode()&(os.ModePerm|os.ModeSetgid), "the mode is kept")
	st := info.Sys().(*syscall.Stat_t)
	assert.Equal(t, uid, int(st.Uid), "the owner is kept")
	assert.Equal(t, gid, int(st.Gid), "the group is kept")
	if os.Geteuid() != 0 {
		t.Log("not root: the file is the tester's own, its owner cannot be another user's here")
	}
}

// Before the fix, -fix replaced a file with hard links by a new file: the
// other names kept the old content.
func TestFixKeepsHardLinks(t *testing.T) {
	t.Parallel()
	dir := fixtureModule(t)
	file := filepath.Join(dir, "leak.go")
	link := filepath.Join(t.TempDir(), "leak.go.link") // outside the package: not compiled twice
	require.NoError(t, os.Link(file, link))

	res := hiplint(t, dir, "-fix", "./...")
	assert.Equal(t, exitClean, res.code)
	assert.Equal(t, golden(t), readFile(t, file))
	assert.Equal(t, golden(t), readFile(t, link))
	a, err := os.Stat(file)
	require.NoError(t, err)
	b, err := os.Stat(link)
	require.NoError(t, err)
	assert.True(t, os.SameFile(a, b), "still one file with two names")
}

// Before the fix, -fix inserted a line ending in LF alone into a file of
// CRLF lines.
func TestFixKeepsCRLFLineEndings(t *testing.T) {
	t.Parallel()
	dir := fixtureModule(t)
	file := filepath.Join(dir, "leak.go")
	crlf := func(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") }
	require.NoError(t, os.WriteFile(file, []byte(crlf(readFile(t, file))), 0o644))

	res := hiplint(t, dir, "-fix", "./...")
	assert.Equal(t, exitClean, res.code)
	assert.Equal(t, crlf(golden(t)), readFile(t, file))
}

// Before the fix, -fix -diff was accepted: it printed the diff and wrote
// nothing, silently ignoring -fix.
func TestFixWithDiffIsAUsageError(t *testing.T) {
	t.Parallel()
	dir := fixtureModule(t)
	before := readFile(t, filepath.Join(dir, "leak.go"))
	for _, args := range [][]string{{"-fix", "-diff"}, {"-diff", "-fix=true"}} {
		res := hiplint(t, dir, append(args, "./...")...)
		assert.Equal(t, exitUsage, res.code, "%v", args)
		assert.Empty(t, res.stdout)
		assert.Contains(t, res.stderr, "hiplint: -fix and -diff cannot be combined")
	}
	assert.Equal(t, before, readFile(t, filepath.Join(dir, "leak.go")))
}

// Before the fix, the control characters of a file name from a //line
// directive reached the terminal: an escape sequence could rewrite what
// the user saw.
func TestControlCharactersInFileNamesAreEscaped(t *testing.T) {
	t.Parallel()
	const name = "\x1b[2J\x1b]0;owned\x07evil.go"
	dir := editLeak(t, "// Launch loads", "//line "+name+":3\n// Launch loads")
	for _, args := range [][]string{{}, {"-fix"}, {"-diff"}} {
		res := hiplint(t, dir, append(args, "./...")...)
		assert.Equal(t, exitFindings, res.code, "%v", args)
		for _, out := range []string{res.stdout, res.stderr} {
			assert.NotContains(t, out, "\x1b", "%v", args)
			assert.NotContains(t, out, "\x07", "%v", args)
		}
		assert.Contains(t, res.stdout+res.stderr, `\x1b[2J\x1b]0;owned\aevil.go`, "%v: the name, escaped", args)
	}
}

// A file with hard links is rewritten in place; a write that fails half way
// (a full disk) puts the old content back. Not parallel: it replaces
// writeData.
func TestInPlaceWriteRestoresTheFileOnFailure(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "a.go")
	const old = "package a\n\nvar old = 1\n"
	require.NoError(t, os.WriteFile(file, []byte(old), 0o640))
	require.NoError(t, os.Link(file, filepath.Join(dir, "b.go.link")))

	saved := writeData
	t.Cleanup(func() { writeData = saved })
	full := errors.New("no space left on device")
	writeData = func(w io.Writer, data []byte) error {
		w.Write(data[:len(data)/2])
		return full
	}
	fixed := "package a\n\nvar fixed = 2 // a longer line than the old one\n"
	err := writeFileAtomic(file, sha256.Sum256([]byte(old)), []byte(fixed), nil)
	assert.ErrorIs(t, err, full)
	assert.ErrorContains(t, err, "its content is restored")
	assert.Equal(t, old, readFile(t, file))

	writeData = saved
	require.NoError(t, writeFileAtomic(file, sha256.Sum256([]byte(old)), []byte(fixed), nil))
	assert.Equal(t, fixed, readFile(t, file))
	assert.Equal(t, fixed, readFile(t, filepath.Join(dir, "b.go.link")), "the link shares the new content")
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, entries, 2, "no temporary file")
}
