package main

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv"
	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
)

const headerlessPkgs = "./cmd/hiplint/testdata/headerless/..."

// runEnv runs the binary under test in the repository root with env.
func runEnv(t *testing.T, env []string, args ...string) result {
	t.Helper()
	return runCmdIn(t, repoRoot, env, hiplintBin, args...)
}

func headerlessHazards(t *testing.T) []mark {
	return sortedMarks(append(
		markedHazards(t, "cmd/hiplint/testdata/headerless/hipcode/hip_rocm.go"),
		markedHazards(t, "cmd/hiplint/testdata/headerless/cudacode/cuda_cuda.go")...))
}

// TestHeaderlessLintsTaggedPackages lints HIP and CUDA packages behind build
// tags on a machine whose C compiler finds no GPU headers: hiplint supplies
// its own declarations, says so once, and reports the marked hazards.
func TestHeaderlessLintsTaggedPackages(t *testing.T) {
	t.Parallel()
	env := testenv.NoGPUHeaders(t)
	res := runEnv(t, env, "-tags", "rocm,cuda", headerlessPkgs)
	require.Equal(t, exitFindings, res.code)
	assert.Equal(t, headerlessHazards(t), marksOf(parseText(t, res.stdout)))
	assert.Equal(t, 1, bytes.Count([]byte(res.stderr), []byte("hiplint: note:")), "one note")
	assert.Contains(t, res.stderr, "<hip/hip_runtime_api.h>")
	assert.Contains(t, res.stderr, "<cuda.h>")

	// Without the tags the GPU files are not part of the packages.
	res = runEnv(t, env, headerlessPkgs)
	assert.Equal(t, exitClean, res.code)
	assert.Empty(t, res.stdout)
}

// TestHeaderlessOffFailsClearly: -headers=system leaves cgo to the machine,
// and the missing header is a clear per-package error.
func TestHeaderlessOffFailsClearly(t *testing.T) {
	t.Parallel()
	env := testenv.NoGPUHeaders(t)
	res := runEnv(t, env, "-headers=system", "-tags", "rocm", "./cmd/hiplint/testdata/headerless/hipcode")
	assert.Equal(t, exitError, res.code)
	assert.Contains(t, res.stderr, "hip_runtime_api.h")
	assert.Empty(t, res.stdout)
}

// TestHeaderlessMatchesRealHeader: where Debian's HIP header is installed,
// linting against it and against hiplint's declarations gives the same
// findings.
func TestHeaderlessMatchesRealHeader(t *testing.T) {
	if _, err := os.Stat(realHIPHeader); err != nil {
		t.Skipf("%s not installed (apt-get install libamdhip64-dev): nothing to compare with", realHIPHeader)
	}
	t.Parallel()
	const pkg = "./cmd/hiplint/testdata/headerless/hipcode"
	real := runEnv(t, os.Environ(), "-headers=system", "-tags", "rocm", pkg)
	ours := runEnv(t, os.Environ(), "-headers=hiplint", "-tags", "rocm", pkg)
	require.Equal(t, exitFindings, real.code)
	assert.Equal(t, real.stdout, ours.stdout)
}

// TestTwinFilesByBuildTag lints a package whose HIP and CUDA files share one
// Go API behind build tags: each tag set reports the hazard of its own file,
// with no GPU headers on the machine.
func TestTwinFilesByBuildTag(t *testing.T) {
	t.Parallel()
	env := testenv.NoGPUHeaders(t)
	const pkg = "./cmd/hiplint/testdata/twins"
	hip := runEnv(t, env, pkg)
	require.Equal(t, exitFindings, hip.code)
	assert.Equal(t, markedHazards(t, "cmd/hiplint/testdata/twins/kernels_hip.go"), marksOf(parseText(t, hip.stdout)))
	cuda := runEnv(t, env, "-tags", "cuda", pkg)
	require.Equal(t, exitFindings, cuda.code)
	assert.Equal(t, markedHazards(t, "cmd/hiplint/testdata/twins/kernels_cuda.go"), marksOf(parseText(t, cuda.stdout)))
}

// TestExamplesSameWithoutGPUHeaders: on a machine whose C compiler finds no
// GPU headers, the examples give exactly the findings they give here.
//
// Each example's cgo runs again for the compiler without GPU headers. The
// default run (testenv.Sample) lints one example of each analyzer
// (graphalloc, peercopy, reload, unifiedmem: the graph, copy, module and
// managed-memory parts of hiplint's declarations) and compares with their
// findings in the run with the headers; HIPLINT_LONGTESTS=1 lints them all.
func TestExamplesSameWithoutGPUHeaders(t *testing.T) {
	t.Parallel()
	examples := testenv.SampleStrings(t, []string{"graphalloc", "kernelcache", "peercopy", "reload", "unifiedmem", "unloadorder"},
		"graphalloc", "peercopy", "reload", "unifiedmem")
	with := onExamples(t)
	var pkgs []string
	for _, e := range examples {
		pkgs = append(pkgs, "./examples/"+e)
	}
	without := runEnv(t, testenv.NoGPUHeaders(t), pkgs...)
	require.Equal(t, exitFindings, with.code)
	assert.Equal(t, with.code, without.code)
	require.NotEmpty(t, without.stdout)
	assert.Equal(t, findingsIn(with.stdout, examples), without.stdout)
}

// findingsIn returns the findings of text output (each line with the
// related positions indented below it) that are in the examples named.
func findingsIn(out string, examples []string) string {
	var b strings.Builder
	keep := false
	for line := range strings.Lines(out) {
		if !strings.HasPrefix(line, "\t") {
			keep = false
			for _, e := range examples {
				if strings.HasPrefix(line, "examples/"+e+"/") {
					keep = true
				}
			}
		}
		if keep {
			b.WriteString(line)
		}
	}
	return b.String()
}
