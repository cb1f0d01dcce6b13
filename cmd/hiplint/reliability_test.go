package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
)

// TestLargeCodebases runs hiplint on the standard library and on
// golang.org/x/tools: code that never calls the GPU runtime but holds every
// shape of Go there is. Nothing may panic or fail inside hiplint; packages
// that do not build here (for another GOOS, say) may be reported as such.
//
// It is opt-in (HIPLINT_LONG=1) because with a cold build cache std takes
// minutes. docs/reliability.md records a run.
func TestLargeCodebases(t *testing.T) {
	if os.Getenv("HIPLINT_LONG") == "" {
		t.Skip("set HIPLINT_LONG=1 to run hiplint on std and golang.org/x/tools")
	}
	t.Run("std", func(t *testing.T) {
		res := timedRun(t, t.TempDir(), nil, "std")
		assertNoCrash(t, res)
		assert.Contains(t, []int{exitClean, exitFindings}, res.code, "std builds here, so nothing is an error")
	})
	t.Run("x/tools", func(t *testing.T) {
		// A module of our own that requires the x/tools version hiplint
		// itself uses, so the module cache already holds it.
		dir := t.TempDir()
		version := moduleVersion(t, "golang.org/x/tools")
		require.NoError(t, os.WriteFile(filepath.Join(dir, "go.mod"),
			[]byte("module example.com/lintxtools\n\ngo 1.26\n\nrequire golang.org/x/tools "+version+"\n"), 0o644))
		require.NoError(t, os.WriteFile(filepath.Join(dir, "tools.go"),
			[]byte("package lintxtools\n\nimport _ \"golang.org/x/tools/go/analysis\"\n"), 0o644))
		env := append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOSUMDB=off")
		tidy := exec.Command("go", "mod", "tidy")
		tidy.Dir, tidy.Env = dir, env
		out, err := tidy.CombinedOutput()
		require.NoError(t, err, "go mod tidy (offline, from the module cache): %s", out)
		// Everything but the commands, present/ and blog/, which need modules
		// (x/telemetry, goldmark) that x/tools' own build does not.
		var patterns []string
		for _, d := range []string{"benchmark", "container", "cover", "go", "imports",
			"internal", "playground", "refactor", "txtar"} {
			patterns = append(patterns, "golang.org/x/tools/"+d+"/...")
		}
		res := timedRun(t, dir, env, patterns...)
		assertNoCrash(t, res)
		assert.Contains(t, []int{exitClean, exitFindings}, res.code, "every package loads")
	})
}

// timedRun runs the binary under test with env (nil: the test's own) and
// logs how long it took.
func timedRun(t *testing.T, dir string, env []string, args ...string) result {
	t.Helper()
	start := time.Now()
	var res result
	if env == nil {
		res = hiplint(t, dir, args...)
	} else {
		cmd := exec.Command(hiplintBin, args...)
		cmd.Dir, cmd.Env = dir, env
		var stdout, stderr strings.Builder
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		_ = cmd.Run()
		res = result{stdout: stdout.String(), stderr: stderr.String(), code: cmd.ProcessState.ExitCode()}
	}
	t.Logf("hiplint %v: exit %d after %v; %d lines of findings, %d lines of errors", args, res.code,
		time.Since(start).Round(time.Second), lines(res.stdout), lines(res.stderr))
	if res.stderr != "" {
		t.Logf("stderr:\n%s", res.stderr)
	}
	return res
}

func lines(s string) int { return strings.Count(s, "\n") }

var internalError = regexp.MustCompile(`internal error|panic:|goroutine \d+ \[|fatal error:`)

// assertNoCrash asserts that hiplint finished by itself and that no
// analyzer panicked or returned an error.
func assertNoCrash(t *testing.T, res result) {
	t.Helper()
	assert.NotEqual(t, -1, res.code, "hiplint was killed")
	assert.NotRegexp(t, internalError, res.stderr)
	assert.NotRegexp(t, internalError, res.stdout)
}

// moduleVersion returns the version of mod that hiplint's go.mod requires.
func moduleVersion(t *testing.T, mod string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repoRoot, "go.mod"))
	require.NoError(t, err)
	m := regexp.MustCompile(`(?m)^\s*(?:require\s+)?` + regexp.QuoteMeta(mod) + `\s+(\S+)`).FindSubmatch(data)
	require.NotNil(t, m, "%s not in go.mod", mod)
	return string(m[1])
}
