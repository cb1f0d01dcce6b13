package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv"
	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
)

// headersPackage writes a one-package module that includes the HIP runtime
// header and calls it correctly (nothing to report), with extra lines in its
// cgo preamble, and returns its directory.
func headersPackage(t *testing.T, preamble string) string {
	t.Helper()
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/tiny\n\ngo 1.26\n"), 0o644))
	src := "package tiny\n\n" + preamble + "// #include <hip/hip_runtime_api.h>\nimport \"C\"\n\n" +
		"// Sync waits for the device.\nfunc Sync() C.hipError_t { return C.hipDeviceSynchronize() }\n"
	require.NoError(t, os.WriteFile(filepath.Join(dir, "tiny.go"), []byte(src), 0o644))
	return dir
}

// headersEnv returns env with a user cache directory of the test's own
// (where hiplint's headers go) and the build cache of the other tests
// (goCache), which that directory would otherwise move. The packages these
// tests lint are in directories of their own (headersPackage): no cgo
// output of theirs is cached from before (the go command does not key it
// on the headers' contents, but on the directory).
func headersEnv(t *testing.T, env []string) []string {
	return append(env, "GOCACHE="+goCache, "XDG_CACHE_HOME="+t.TempDir(), "GOFLAGS=-mod=mod")
}

// TestHeadersCommandServesGoVet: `hiplint headers` prints the directory of
// hiplint's declarations, and go vet -vettool works with it on a machine
// without GPU headers, as docs/vet.md says (issue 21, item 5).
func TestHeadersCommandServesGoVet(t *testing.T) {
	t.Parallel()
	env := headersEnv(t, testenv.NoGPUHeaders(t))
	res := runCmdIn(t, repoRoot, env, hiplintBin, "headers")
	require.Equal(t, exitClean, res.code)
	dir := strings.TrimSuffix(res.stdout, "\n")
	require.NotContains(t, dir, "\n", "one line: the directory")
	_, err := os.Stat(filepath.Join(dir, "hip", "hip_runtime_api.h"))
	require.NoError(t, err)
	assert.Empty(t, res.stderr)

	pkg := headersPackage(t, "")
	vet := runCmdIn(t, pkg, env, "go", "vet", "-vettool="+hiplintBin, ".")
	require.NotEqual(t, 0, vet.code, "without the declarations cgo cannot find the header")
	assert.Contains(t, vet.stderr, "hip_runtime_api.h")

	vet = runCmdIn(t, pkg, append(env, "CGO_CFLAGS=-idirafter "+dir), "go", "vet", "-vettool="+hiplintBin, ".")
	assert.Equal(t, 0, vet.code)
	assert.Empty(t, vet.stderr)

	assert.Equal(t, exitUsage, runCmdIn(t, repoRoot, env, hiplintBin, "headers", "extra").code)
}

// TestHeadersHiplintOverridesInstalled: -headers=hiplint uses hiplint's
// declarations even where the C compiler finds installed headers first
// (here a broken one on CGO_CFLAGS's -I path); auto leaves them be (issue
// 21, item 8).
func TestHeadersHiplintOverridesInstalled(t *testing.T) {
	t.Parallel()
	fake := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(fake, "hip"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(fake, "hip", "hip_runtime_api.h"), []byte("#error fake installed header\n"), 0o644))
	env := append(headersEnv(t, testenv.NoGPUHeaders(t)), "CGO_CFLAGS=-I"+fake)
	pkg := headersPackage(t, "")

	res := runCmdIn(t, pkg, env, hiplintBin, "./...")
	assert.Contains(t, res.stderr, "fake installed header", "auto: the installed header wins")

	res = runCmdIn(t, pkg, env, hiplintBin, "-headers=hiplint", "./...")
	assert.Equal(t, exitClean, res.code)
	assert.Empty(t, res.stderr, "hiplint's declarations: cgo succeeds")
}

// TestPlatformErrorHint: with the HIP headers of Debian's libamdhip64-dev
// installed, a package that defines no HIP platform fails in the header's
// #error. hiplint defines __HIP_PLATFORM_AMD__ for it as hipcc does and says
// so (internal/synth, issue 30); with -headers=system, which repairs
// nothing, the hint says how to fix it; -headers=hiplint lints it (issue 21,
// item 8).
func TestPlatformErrorHint(t *testing.T) {
	if _, err := os.Stat("/usr/include/hip/hip_runtime_api.h"); err != nil {
		t.Skip("no installed HIP headers (/usr/include/hip/hip_runtime_api.h; Debian's libamdhip64-dev): the platform #error cannot happen")
	}
	t.Parallel()
	env := append(headersEnv(t, os.Environ()), "CGO_ENABLED=1")
	pkg := headersPackage(t, "")
	res := runCmdIn(t, pkg, env, hiplintBin, "./...")
	assert.Equal(t, exitClean, res.code)
	assert.Contains(t, res.stderr, "Must define exactly one of __HIP_PLATFORM_AMD__", "the note names the cgo error")
	assert.Contains(t, res.stderr, "defined __HIP_PLATFORM_AMD__ for HIP's header, as hipcc does: analyzed with the runtime's C types")
	assert.NotContains(t, res.stderr, "hint:")

	res = runCmdIn(t, pkg, env, hiplintBin, "-headers=system", "./...")
	assert.Equal(t, exitError, res.code)
	assert.Contains(t, res.stderr, "Must define exactly one of __HIP_PLATFORM_AMD__")
	assert.Contains(t, res.stderr, "hiplint: hint:")
	assert.Contains(t, res.stderr, "#cgo CFLAGS: -D__HIP_PLATFORM_AMD__")
	assert.Contains(t, res.stderr, "-headers=hiplint")

	// The hint's second suggestion, -headers=hiplint, is a whole load with
	// other headers (4 s of CPU): TestHeadersHiplintOverridesInstalled
	// checks in every run that it lints where the installed header fails;
	// HIPLINT_LONGTESTS=1 follows it here too.
	if testenv.Long(t) {
		res = runCmdIn(t, pkg, env, hiplintBin, "-headers=hiplint", "./...")
		assert.Equal(t, exitClean, res.code)
		assert.Empty(t, res.stderr)
	}

	// Following the hint's first suggestion works too.
	pkg = headersPackage(t, "// #cgo CFLAGS: -D__HIP_PLATFORM_AMD__\n")
	res = runCmdIn(t, pkg, env, hiplintBin, "./...")
	assert.Equal(t, exitClean, res.code)
	assert.NotContains(t, res.stderr, "hint")
}
