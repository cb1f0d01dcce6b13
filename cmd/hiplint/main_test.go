package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// The integration tests run the real binary, built once here, the way users
// and go vet run it.

var (
	hiplintBin string // the binary under test
	repoRoot   string // the module root, where examples/ lives
)

func TestMain(m *testing.M) {
	os.Exit(runTests(m))
}

func runTests(m *testing.M) int {
	dir, err := os.MkdirTemp("", "hiplint-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)

	hiplintBin = filepath.Join(dir, "hiplint")
	build := exec.Command("go", "build", "-o", hiplintBin, ".")
	build.Stdout, build.Stderr = os.Stdout, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintf(os.Stderr, "building hiplint: %v\n", err)
		return 1
	}
	if repoRoot, err = filepath.Abs(filepath.Join("..", "..")); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	// The suite's own result cache (docs/cache.md), not the user's.
	os.Setenv("HIPLINT_CACHE", filepath.Join(dir, "cache"))
	return m.Run()
}

// result is what one command printed and its exit status.
type result struct {
	stdout, stderr string
	code           int
}

// run runs name with args in dir and returns what it printed; it fails the
// test only when the command could not be started at all.
func run(t *testing.T, dir, name string, args ...string) result {
	t.Helper()
	return runCmdIn(t, dir, nil, name, args...)
}

// runCmdIn is run with env as the command's environment (nil: this
// process's).
func runCmdIn(t *testing.T, dir string, env []string, name string, args ...string) result {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatalf("%s %v: %v", name, args, err)
	}
	res := result{stdout.String(), stderr.String(), cmd.ProcessState.ExitCode()}
	t.Logf("%s %v in %s: exit %d\nstdout:\n%s\nstderr:\n%s", name, args, dir, res.code, res.stdout, res.stderr)
	return res
}

// hiplint runs the binary under test in dir.
func hiplint(t *testing.T, dir string, args ...string) result {
	t.Helper()
	return run(t, dir, hiplintBin, args...)
}
