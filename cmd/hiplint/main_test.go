package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// The integration tests run the real binary, built once here, the way users
// and go vet run it.

var (
	hiplintBin string // the binary under test
	repoRoot   string // the module root, where examples/ lives

	// coldGOCACHE is the build cache of the tests that must not use the
	// user's (freshEnv, headersEnv): empty when the tests start, so that
	// nothing cgo made before, on a machine with other headers, is reused
	// (the go command does not key cgo's output on the headers' contents).
	// It is shared among those tests, which build the same dependencies
	// (runtime/cgo, the standard library) with the same compilers and
	// headers: one cold build instead of one per test.
	coldGOCACHE string
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
	coldGOCACHE = filepath.Join(dir, "gocache")
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
	cpu            time.Duration // user + system time of it and its children; zero where not measured
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
	res := result{stdout.String(), stderr.String(), cmd.ProcessState.ExitCode(), cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()}
	t.Logf("%s %v in %s: exit %d, %s\nstdout:\n%s\nstderr:\n%s", name, args, dir, res.code, cpuTime(cmd.ProcessState), res.stdout, res.stderr)
	return res
}

// cpuTime says how much CPU time the finished process and the children it
// waited for used (user + system), for the log: the suite's time budget
// (docs/performance.md, Test suite time) is counted in CPU time, which a
// loaded machine does not inflate as it does wall time.
func cpuTime(ps *os.ProcessState) string {
	return fmt.Sprintf("cpu %.2fs", (ps.UserTime() + ps.SystemTime()).Seconds())
}

// hiplint runs the binary under test in dir.
func hiplint(t *testing.T, dir string, args ...string) result {
	t.Helper()
	return run(t, dir, hiplintBin, args...)
}

// sharedRun is one run of the binary that several tests read.
type sharedRun struct {
	once sync.Once
	res  result
}

// exampleRuns holds the runs of the binary on ./examples/... in the module
// root, by their flags.
var exampleRuns sync.Map // string (the flags) -> *sharedRun

// onExamples returns the run of the binary under test with flags on
// ./examples/... in the module root, in this process's environment. The
// examples do not change during the tests, and each run takes seconds of
// CPU, so the tests that read the same run share it: the first that asks
// makes it.
func onExamples(t *testing.T, flags ...string) result {
	t.Helper()
	v, _ := exampleRuns.LoadOrStore(strings.Join(flags, "\x00"), new(sharedRun))
	r := v.(*sharedRun)
	made := false
	r.once.Do(func() {
		made = true
		r.res = hiplint(t, repoRoot, append(slices.Clone(flags), "./examples/...")...)
	})
	if !made {
		t.Logf("hiplint %v ./examples/...: exit %d (the run another test made)", flags, r.res.code)
	}
	return r.res
}
