package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hiplint/hiplint/internal/testenv/require"
)

// The integration tests run the real binary, built once here, the way users
// and go vet run it.

var (
	hiplintBin string // the binary under test
	repoRoot   string // the module root, where examples/ lives
	testTmp    string // this test binary's temporary directory, removed when it ends

	// goCache is the go command's build cache in this process's
	// environment (go env GOCACHE). The tests whose environment changes
	// what it defaults to (XDG_CACHE_HOME) name it, so that they too build
	// on what the others have built.
	goCache string
)

// freshFixtures holds freshRoot's copy.
var freshFixtures struct {
	once sync.Once
	dir  string
	err  error
}

// freshDirs are the fixtures freshRoot copies, relative to the module root.
var freshDirs = []string{
	"testdata/src/loading", "testdata/src/apinames",
	"cmd/hiplint/testdata/platform", "cmd/hiplint/testdata/platformfull", "cmd/hiplint/testdata/realnewer",
	"cmd/hiplint/testdata/missingimport",
}

// freshRoot returns a copy of the fixtures that the tests of loading,
// synthesis and headers lint with cgo, made once per test binary in a
// directory of its own, laid out as in the repository in a module of the
// repository's path (so their package paths and file names are the
// repository's). The go command keys cgo's output on the package's
// directory but not on the headers it includes: in the repository's
// directories, cgo's output made before, on a machine with other headers,
// would be reused. In a directory no earlier run has seen, none is, and
// the tests share one build cache with everything else (the standard
// library built once, not again in an empty cache: docs/performance.md,
// "Test suite time, third round").
func freshRoot(t *testing.T) string {
	t.Helper()
	freshFixtures.once.Do(func() {
		freshFixtures.dir, freshFixtures.err = copyFresh(filepath.Join(testTmp, "fresh"))
	})
	require.NoError(t, freshFixtures.err)
	return freshFixtures.dir
}

func copyFresh(root string) (string, error) {
	mod, err := os.ReadFile(filepath.Join(repoRoot, "go.mod"))
	if err != nil {
		return "", err
	}
	goLine := regexp.MustCompile(`(?m)^go \S+$`).Find(mod)
	if goLine == nil {
		return "", errors.New("go.mod has no go line")
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(root, "go.mod"), []byte("module github.com/hiplint/hiplint\n\n"+string(goLine)+"\n"), 0o644); err != nil {
		return "", err
	}
	for _, d := range freshDirs {
		err := filepath.WalkDir(filepath.Join(repoRoot, d), func(path string, e os.DirEntry, err error) error {
			if err != nil || e.IsDir() {
				return err
			}
			rel, err := filepath.Rel(repoRoot, path)
			if err != nil {
				return err
			}
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			if err := os.MkdirAll(filepath.Dir(filepath.Join(root, rel)), 0o755); err != nil {
				return err
			}
			return os.WriteFile(filepath.Join(root, rel), data, 0o644)
		})
		if err != nil {
			return "", err
		}
	}
	return root, nil
}

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

	testTmp = dir
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
	out, err := exec.Command("go", "env", "GOCACHE").Output()
	if err != nil {
		fmt.Fprintf(os.Stderr, "go env GOCACHE: %v\n", err)
		return 1
	}
	goCache = strings.TrimSpace(string(out))
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
	if ps == nil {
		return "cpu not measured (not started)"
	}
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

// examplesMu makes onExamples' runs one at a time: the first analyzes the
// examples and fills the result cache, whose entries serve every output
// format; a run with other flags made at the same time would analyze them
// all again (two runs of 10 s of CPU each where one is needed).
var examplesMu sync.Mutex

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
		examplesMu.Lock()
		defer examplesMu.Unlock()
		r.res = hiplint(t, repoRoot, append(slices.Clone(flags), "./examples/...")...)
	})
	if !made {
		t.Logf("hiplint %v ./examples/...: exit %d (the run another test made)", flags, r.res.code)
	}
	return r.res
}
