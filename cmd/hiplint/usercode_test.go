package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv"
	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
)

// TestLintingRunsNoUserCode: hiplint runs user code only under confirm.
// testdata/usercode writes a marker file from its init, TestMain, test and
// go:generate line; no way of linting it may create that file, and confirm
// runs only the tests it planned (-run that matches none: nothing).
func TestLintingRunsNoUserCode(t *testing.T) {
	t.Parallel()
	marker := filepath.Join(t.TempDir(), "ran")
	// In the commands' environment, not this process's (t.Setenv), so that
	// the test can run in parallel with the others.
	env := append(os.Environ(), "HIPLINT_USERCODE_MARKER="+marker)
	lint := func(args ...string) result {
		t.Helper()
		return runCmdIn(t, ".", env, hiplintBin, args...)
	}
	pkg := "./testdata/usercode"
	noMark := func(how string) {
		t.Helper()
		data, err := os.ReadFile(marker)
		assert.True(t, os.IsNotExist(err), "%s ran user code: %q", how, data)
	}

	res := lint(pkg)
	assert.Equal(t, exitFindings, res.code, "the leak is found")
	assert.Contains(t, res.stdout, "HL2001")
	noMark("hiplint")
	// The default run (testenv.Sample) keeps the flags that change what
	// is loaded (-test: the test variant and its generated main) and the
	// one that computes and prints edits (-diff); the output formats and
	// -headers change what is printed or which C header cgo reads, not
	// what is run. HIPLINT_LONGTESTS=1 runs each.
	for _, args := range testenv.Sample(t, [][]string{
		{"-test", pkg},
		{"-json", pkg},
		{"-format", "sarif", pkg},
		{"-diff", pkg},
		{"-headers", "hiplint", pkg},
	}, func(args []string) string { return args[0] }, "-test", "-diff") {
		lint(args...)
		noMark("hiplint " + args[0])
	}

	vet := exec.Command("go", "vet", "-vettool="+hiplintBin, pkg)
	vet.Env = env
	out, err := vet.CombinedOutput()
	t.Logf("go vet -vettool: %v, %s\n%s", err, cpuTime(vet.ProcessState), out)
	assert.Contains(t, string(out), "is not unloaded on this return")
	noMark("go vet -vettool")

	res = lint("confirm", "-run", "NoSuchTest", pkg)
	require.Equal(t, 4, res.code, "not exercised is no verdict: %s", res.stderr)
	assert.Contains(t, res.stdout, "NOT EXERCISED")
	noMark("hiplint confirm -run NoSuchTest")
}
