package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
)

// Issue 16 items 9 and 10, and the audit of exit status 2.

// Before the fix, hiplint ./examples/reload > /dev/full exited 3 and said
// nothing: the findings were lost without a word.
func TestWriteErrorOnStandardOutput(t *testing.T) {
	t.Parallel()
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skipf("no /dev/full here: %v", err)
	}
	defer full.Close()
	for _, args := range [][]string{
		{"./examples/reload"},
		{"-json", "./examples/reload"},
		{"-sarif", "./examples/reload"},
		{"checks"},
		{"checks", "-json"},
		{"version"},
	} {
		cmd := exec.Command(hiplintBin, args...)
		cmd.Dir = repoRoot
		var stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = full, &stderr
		err := cmd.Run()
		var exit *exec.ExitError
		require.True(t, err == nil || errors.As(err, &exit), "%v: %v", args, err)
		t.Logf("hiplint %v > /dev/full: %s", args, cpuTime(cmd.ProcessState))
		assert.Equal(t, exitError, cmd.ProcessState.ExitCode(), "%v", args)
		assert.Equal(t, 1, strings.Count(stderr.String(), "hiplint: writing standard output: "), "%v: one error line\n%s", args, stderr.String())
	}
}

// failingWriter fails every write; panicWriter panics.
type failingWriter struct{ writes int }

func (w *failingWriter) Write([]byte) (int, error) {
	w.writes++
	return 0, errors.New("no space left on device")
}

type panicWriter struct{}

func (panicWriter) Write([]byte) (int, error) { panic("a bug in hiplint") }

func TestStandardOutputErrorInProcess(t *testing.T) {
	t.Parallel()
	out := &failingWriter{}
	var stderr bytes.Buffer
	p := &program{checks: testChecks, stdout: out, stderr: &stderr}
	assert.Equal(t, exitError, p.main([]string{"checks"}))
	assert.Equal(t, "hiplint: writing standard output: no space left on device\n", stderr.String())
	assert.Equal(t, 1, out.writes, "nothing more is tried after the first failure")
}

// A panic in hiplint's own code (not in an analyzer, which internal/driver/guard.go turns
// into an error) ended the process with Go's status 2, the status of a bad
// command line.
func TestPanicIsAnErrorNotAUsageError(t *testing.T) {
	t.Parallel()
	var stderr bytes.Buffer
	p := &program{checks: testChecks, stdout: panicWriter{}, stderr: &stderr}
	assert.Equal(t, exitError, p.main([]string{"version"}))
	assert.Contains(t, stderr.String(), "hiplint: internal error: a bug in hiplint")
}

// Before the fix, -headers foo exited 1, the status of a failed run.
func TestBadFlagValuesAreUsageErrors(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"-headers", "foo", "./testdata/clean"},
		{"-headers=", "./testdata/clean"},
		{"lsp", "-headers", "foo"},
		{"-format", "xml", "./testdata/clean"},
		{"-test=maybe", "./testdata/clean"},
		{"-modulebalance=maybe", "./testdata/clean"},
		{"checks", "extra"},
	} {
		res := hiplint(t, ".", args...)
		assert.Equal(t, exitUsage, res.code, "%v", args)
		assert.Empty(t, res.stdout, "%v", args)
	}
	res := hiplint(t, ".", "-headers", "foo", "./testdata/clean")
	assert.Contains(t, res.stderr, "-headers foo: want auto, system or hiplint")

	// Not usage errors: a pattern that matches nothing, and a package that
	// does not compile.
	assert.Equal(t, exitError, hiplint(t, ".", "./testdata/nosuchdir").code)
	assert.Equal(t, exitError, hiplint(t, ".", "./testdata/broken").code)
}
