package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// confirmModule writes a module of one package, p, from files.
func confirmModule(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/m\n\ngo 1.21\n"), 0o644))
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "p"), 0o755))
	for name, src := range files {
		require.NoError(t, os.WriteFile(filepath.Join(dir, "p", name), []byte(src), 0o644))
	}
	return dir
}

// confirmEnv is a machine without GPU headers or runtime, confirm's
// temporary directories under tmp.
func confirmEnv(t *testing.T, tmp string) []string {
	return append(testenv.NoGPUHeaders(t), "GOFLAGS=", "HIPLINT_PLATFORM=none", "TMPDIR="+tmp)
}

// leftInTmp lists what confirm left in tmp.
func leftInTmp(t *testing.T, tmp string) []string {
	entries, err := os.ReadDir(tmp)
	require.NoError(t, err)
	var left []string
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "hiplint-confirm-") {
			left = append(left, e.Name())
		}
	}
	return left
}

const confirmLeak = `
func Load(image unsafe.Pointer) error {
	var m C.hipModule_t
	if C.hipModuleLoadData(&m, image) != C.hipSuccess {
		return errors.New("load failed")
	}
	return nil
}
`

const confirmLeakTest = `package p

import "testing"

func TestLoad(t *testing.T) { _ = Load(nil) }
`

// TestConfirmTier3: a package analyzed at tier 3 (its cgo step fails: a
// header that does not exist) with a finding made confirm panic in go/ssa
// ("unsatisfied import: Program.CreatePackage("C") was not called"), exit
// 2 with a stack trace and its temporary directory left behind (issue 29,
// item 4). Now the finding is inconclusive, with the reason, and nothing
// is left.
func TestConfirmTier3(t *testing.T) {
	dir := confirmModule(t, map[string]string{
		"sdk.go":    "package p\n\n// #include <no_such_sdk_header.h>\nimport \"C\"\n\ntype Handle struct{ h C.sdkHandle_t }\n",
		"leak.go":   "package p\n\nimport \"C\"\n\nimport (\n\t\"errors\"\n\t\"unsafe\"\n)\n" + confirmLeak,
		"p_test.go": confirmLeakTest,
	})
	tmp := t.TempDir()
	res := runCmdIn(t, dir, confirmEnv(t, tmp), hiplintBin, "confirm", "./...")
	assert.Equal(t, 4, res.code, "inconclusive: no verdict decides")
	assert.NotContains(t, res.stderr, "panic")
	assert.NotContains(t, res.stderr, "goroutine ")
	assert.Contains(t, res.stdout, "p/leak.go:12:5: module m loaded by hipModuleLoadData is not unloaded on this return")
	assert.Contains(t, res.stdout, "\tINCONCLUSIVE\n")
	assert.Contains(t, res.stdout, "the package's cgo step failed when confirm loaded it (p/sdk.go:3:11: fatal error: no_such_sdk_header.h: No such file or directory)")
	assert.Contains(t, res.stdout, "its tests cannot be built, so confirm cannot run them")
	assert.Contains(t, res.stderr, "hiplint confirm: 1 inconclusive\n")
	assert.Empty(t, leftInTmp(t, tmp))
}

// TestConfirmBuildFailure: with no GPU runtime the instrumented test does
// not build. Confirm exited 0 there, with every verdict inconclusive and,
// as evidence, the linker's 1,200-character command line cut before the
// error (issue 34, item 4). Now: exit status 4, the evidence is the build's
// first error in one line, and stderr says once that no test could be
// built; it no longer announces inconclusive verdicts before knowing.
func TestConfirmBuildFailure(t *testing.T) {
	dir := confirmModule(t, map[string]string{
		"leak.go":   "package p\n\n// #cgo CFLAGS: -D__HIP_PLATFORM_AMD__\n// #cgo LDFLAGS: -lhiplint_no_such_library\n// #include <hip/hip_runtime_api.h>\nimport \"C\"\n\nimport (\n\t\"errors\"\n\t\"unsafe\"\n)\n" + confirmLeak,
		"p_test.go": confirmLeakTest,
	})
	tmp := t.TempDir()
	res := runCmdIn(t, dir, confirmEnv(t, tmp), hiplintBin, "confirm", "./...")
	assert.Equal(t, 4, res.code)
	assert.NotContains(t, res.stderr, "will be inconclusive")
	assert.Contains(t, res.stdout, "\tINCONCLUSIVE by TestLoad\n")
	var evidence string
	for _, l := range strings.Split(res.stdout, "\n") {
		if strings.Contains(l, "build failed: ") {
			evidence = l
			break
		}
	}
	require.NotEmpty(t, evidence, "the build failure is the evidence")
	assert.Less(t, len(evidence), 400, "one short line: %q", evidence)
	assert.NotContains(t, evidence, "-Wl,")
	assert.NotContains(t, evidence, "running gcc failed")
	// Without the headers the C compiler stops first; with them installed,
	// the linker.
	assert.Regexp(t, `build failed: (\./leak\.go:\d+:\d+: fatal error: hip/hip_runtime_api\.h: No such file or directory|.*cannot find -lhiplint_no_such_library.*)$`, evidence)
	assert.Contains(t, res.stderr, "hiplint confirm: no test could be built (build failed: ")
	assert.Contains(t, res.stderr, "no ROCm and no CUDA was found to build them against")
	assert.Empty(t, leftInTmp(t, tmp))
}
