package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
)

// Synthesis (internal/synth), through the built binary, on a machine
// without GPU headers, on copies of the fixtures whose cgo output no earlier
// run has cached (freshRoot: Go's cache does not key cgo's output on header
// contents).

// loadReport runs the binary with HIPLINT_LOADREPORT and returns the run and
// the report's line for pkg.
func loadReport(t *testing.T, env []string, pkg string, args ...string) (result, string) {
	t.Helper()
	report := filepath.Join(t.TempDir(), "load.txt")
	res := runFresh(t, append(env, "HIPLINT_LOADREPORT="+report), args...)
	data, err := os.ReadFile(report)
	require.NoError(t, err, "stderr: %s", res.stderr)
	line := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(pkg) + ` .*$`).FindString(string(data))
	return res, line
}

// TestSynthLibraryHeaderKeepsCTypes: a package that includes cuBLAS's header
// next to HIP's runtime keeps the runtime's C types (the header is stubbed,
// the cuBLAS names declared from their use) and its hazard, which needs
// them, is found; forced to tier 3 the same package misses it.
func TestSynthLibraryHeaderKeepsCTypes(t *testing.T) {
	t.Parallel()
	env := freshEnv(t)
	res, line := loadReport(t, env, loadingPkg("cublas"), "./"+loadingDir+"/cublas")
	require.Equal(t, exitFindings, res.code, "stderr: %s", res.stderr)
	assert.Equal(t, loadingPkg("cublas")+" analyzed gpu", line)
	assert.Equal(t, loadingHazards(t, "cublas"), marksOf(parseText(t, res.stdout)))
	assert.Regexp(t, `cublas: note: cgo failed \([^)]*cublas_v2\.h[^)]*\); stubbed <cublas_v2\.h>; declared 6 C names from their use in Go \(CUBLAS_STATUS_SUCCESS, cublasCreate, cublasDestroy, cublasHandle_t, cublasSetStream, cublasSscal\): analyzed with the runtime's C types`, res.stderr)
	assert.NotContains(t, res.stderr, "without C types")

	forced, line := loadReport(t, append(env, "HIPLINT_TIER3=force"), loadingPkg("cublas"), "./"+loadingDir+"/cublas")
	assert.Equal(t, loadingPkg("cublas")+" tier3 gpu", line)
	assert.Equal(t, exitClean, forced.code, "at tier 3 the hazard's function is opaque; stderr: %s", forced.stderr)
	assert.Contains(t, forced.stderr, "tier 3 forced (HIPLINT_TIER3=force)")
}

// TestSynthPreambleHelper: a package whose preamble includes a library
// header the machine lacks and defines its own C helper with the
// library's types (go_cublas_err(cublasStatus_t), as unixpickle/cuda's
// cublas does), called from Go, keeps the runtime's C types: the helper is
// never synthesized (a made-up declaration clashed with its definition and
// the package was given up), the names its definition uses are, and the
// hazard, which needs the C types, is found; forced to tier 3 it is missed.
func TestSynthPreambleHelper(t *testing.T) {
	t.Parallel()
	env := freshEnv(t)
	pkg := loadingPkg("preamblefn")
	res, line := loadReport(t, env, pkg, "./"+loadingDir+"/preamblefn")
	require.Equal(t, exitFindings, res.code, "stderr: %s", res.stderr)
	assert.Equal(t, pkg+" analyzed gpu", line, "stderr: %s", res.stderr)
	assert.Equal(t, loadingHazards(t, "preamblefn"), marksOf(parseText(t, res.stdout)))
	assert.Regexp(t, `preamblefn: note: cgo failed \([^)]*cublas_v2\.h[^)]*\); stubbed <cublas_v2\.h>; declared \d+ C names from their use in Go and in its preambles' C code \([^)]*\): analyzed with the runtime's C types`, res.stderr)
	assert.NotRegexp(t, `declared [^:]*(go_cublas_err|go_cublas_null_message|goPointerModeHost)`, res.stderr, "the preamble's own names")
	assert.NotContains(t, res.stderr, "without C types")

	forced, line := loadReport(t, append(env, "HIPLINT_TIER3=force"), pkg, "./"+loadingDir+"/preamblefn")
	assert.Equal(t, pkg+" tier3 gpu", line)
	assert.Equal(t, exitClean, forced.code, "at tier 3 the hazard's function is opaque; stderr: %s", forced.stderr)
}

// TestSynthEmptiesCSources: a package whose own C source includes the
// library header the machine lacks (its Go preamble too) keeps the
// runtime's C types: the C source is emptied, the library's names are
// declared from their use in Go, and the hazard, which needs the C types,
// is found; the note names the emptied source.
func TestSynthEmptiesCSources(t *testing.T) {
	t.Parallel()
	res, line := loadReport(t, freshEnv(t), loadingPkg("csource"), "./"+loadingDir+"/csource")
	require.Equal(t, exitFindings, res.code, "stderr: %s", res.stderr)
	assert.Equal(t, loadingPkg("csource")+" analyzed gpu", line)
	assert.Equal(t, loadingHazards(t, "csource"), marksOf(parseText(t, res.stdout)))
	assert.Regexp(t, `csource: note: cgo failed \([^)]*hlfakelib\.h[^)]*\); stubbed <hlfakelib\.h>; emptied its C sources csource\.c \(they include a missing header; hiplint reads only Go\); declared \d+ C names from their use in Go \([^)]*\): analyzed with the runtime's C types`, res.stderr)
	assert.NotContains(t, res.stderr, "without C types")
}

// TestSynthAbsoluteInclude: HIP's header included by absolute path into a
// ROCm tree the machine does not have is served by hiplint's declarations.
func TestSynthAbsoluteInclude(t *testing.T) {
	t.Parallel()
	res, line := loadReport(t, freshEnv(t), loadingPkg("absinclude"), "./"+loadingDir+"/absinclude")
	require.Equal(t, exitFindings, res.code, "stderr: %s", res.stderr)
	assert.Equal(t, loadingPkg("absinclude")+" analyzed gpu", line)
	assert.Equal(t, loadingHazards(t, "absinclude"), marksOf(parseText(t, res.stdout)))
	assert.Contains(t, res.stderr, "served /opt/rocm-hiplint-absent/include/hip/hip_runtime.h -> <hip/hip_runtime.h> by hiplint's declarations")
	assert.NotContains(t, res.stderr, "without C types")
}

// TestSynthPlatformMacro: Debian's real HIP header without a platform macro
// is analyzed with its C types: hiplint defines __HIP_PLATFORM_AMD__ as
// hipcc does, and says so.
func TestSynthPlatformMacro(t *testing.T) {
	if _, err := os.Stat(realHIPHeader); err != nil {
		t.Skipf("%s not installed (apt-get install libamdhip64-dev): the platform macro case needs the real header", realHIPHeader)
	}
	t.Parallel()
	// platform includes hip_runtime_api.h, platformfull hip_runtime.h (four
	// #errors, the chain named in full for the first only: it fell to tier 3).
	for _, dir := range []string{"platform", "platformfull"} {
		t.Run(dir, func(t *testing.T) {
			t.Parallel()
			pkg := "github.com/hiplint/hiplint/cmd/hiplint/testdata/" + dir
			res, line := loadReport(t, os.Environ(), pkg, "./cmd/hiplint/testdata/"+dir)
			require.Equal(t, exitFindings, res.code, "stderr: %s", res.stderr)
			assert.Equal(t, pkg+" analyzed gpu", line)
			assert.Equal(t, sortedMarks(markedHazards(t, "cmd/hiplint/testdata/"+dir+"/"+dir+".go")), marksOf(parseText(t, res.stdout)))
			assert.Contains(t, res.stderr, "defined __HIP_PLATFORM_AMD__ for HIP's header, as hipcc does")
			assert.NotContains(t, res.stderr, "without C types")
			assert.NotContains(t, res.stderr, "hint:")
		})
	}
}

// TestDegradedPackageCached: a run with a package at tier 3 stores its
// entry, and the next run answers it from the cache with the same output.
// Its Degraded note was attributed to no group (the line "PATH:" named no
// package path), so such a run stored nothing, and every later run, zerfoo's
// on a host with an NCCL header that cannot be compiled, analyzed
// everything again.
func TestDegradedPackageCached(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	statsFile := filepath.Join(dir, "stats.json")
	env := append(freshEnv(t), "HIPLINT_CACHE="+filepath.Join(dir, "cache"), "HIPLINT_CACHE_STATS="+statsFile)
	stats := func() cacheStats {
		t.Helper()
		var s cacheStats
		data, err := os.ReadFile(statsFile)
		require.NoError(t, err)
		require.NoError(t, json.Unmarshal(data, &s))
		return s
	}
	pkg := "./" + loadingDir + "/conflict"
	args := []string{"-modulebalance=false", "-json", pkg}
	cold := runFresh(t, env, args...)
	assert.Equal(t, []string{loadingPkg("conflict")}, stats().Analyzed)
	assert.Equal(t, 1, stats().Stored, "the degraded package's entry")
	warm := runFresh(t, env, args...)
	assert.Equal(t, []string{loadingPkg("conflict")}, stats().Hits)
	assert.Empty(t, stats().Analyzed)
	assert.Equal(t, cold.code, warm.code)
	assert.Equal(t, cold.stdout, warm.stdout)
	assert.Equal(t, cold.stderr, warm.stderr)
	assert.Contains(t, warm.stdout, "without C types", "the JSON entry of the degraded package")
}

// TestDegradedPackageVisible: a package synthesis cannot rescue (its own
// declarations clash with the runtime header's) is analyzed at tier 3, and
// every output says so: a note on stderr, a JSON entry, a SARIF
// notification; -strict-ctypes makes it fail the run.
func TestDegradedPackageVisible(t *testing.T) {
	t.Parallel()
	env := freshEnv(t)
	pkg := "./" + loadingDir + "/conflict"
	// The module analyzer finds the package's hazards: without it, only the
	// load decides the exit status.
	args := []string{"-modulebalance=false"}
	notePattern := regexp.QuoteMeta(loadingPkg("conflict")) + `: note: cgo failed \(.*redefinition.*\); analyzed from its Go files without C types`

	text := runFresh(t, env, append(args, pkg)...)
	assert.Equal(t, exitClean, text.code, "a note is not an error by default")
	assert.Regexp(t, notePattern, text.stderr)

	strict := runFresh(t, env, append(args, "-strict-ctypes", pkg)...)
	assert.Equal(t, exitError, strict.code)
	assert.Contains(t, strict.stderr, "-strict-ctypes: 1 package(s) analyzed without their C types")

	js := runFresh(t, env, append(args, "-json", "-strict-ctypes", pkg)...)
	assert.Equal(t, exitError, js.code)
	var tree map[string]map[string]json.RawMessage
	require.NoError(t, json.Unmarshal([]byte(js.stdout), &tree), js.stdout)
	var entry struct {
		Degraded string `json:"degraded"`
		Strict   bool   `json:"strict"`
	}
	require.NoError(t, json.Unmarshal(tree[loadingPkg("conflict")]["hiplint:ctypes"], &entry), js.stdout)
	assert.Regexp(t, notePattern, entry.Degraded)
	assert.True(t, entry.Strict)

	for _, strict := range []bool{false, true} {
		sargs := append(append([]string{}, args...), "-sarif")
		if strict {
			sargs = append(sargs, "-strict-ctypes")
		}
		sarif := runFresh(t, env, append(sargs, pkg)...)
		var log struct {
			Runs []struct {
				Invocations []struct {
					ExecutionSuccessful        bool `json:"executionSuccessful"`
					ToolExecutionNotifications []struct {
						Level   string `json:"level"`
						Message struct{ Text string }
					} `json:"toolExecutionNotifications"`
				} `json:"invocations"`
			} `json:"runs"`
		}
		require.NoError(t, json.Unmarshal([]byte(sarif.stdout), &log), sarif.stdout)
		inv := log.Runs[0].Invocations[0]
		require.Len(t, inv.ToolExecutionNotifications, 1, "strict=%v", strict)
		assert.Regexp(t, notePattern, inv.ToolExecutionNotifications[0].Message.Text)
		if strict {
			assert.Equal(t, exitError, sarif.code)
			assert.Equal(t, "error", inv.ToolExecutionNotifications[0].Level)
			assert.False(t, inv.ExecutionSuccessful)
		} else {
			assert.Equal(t, exitClean, sarif.code)
			assert.Equal(t, "warning", inv.ToolExecutionNotifications[0].Level)
			assert.True(t, inv.ExecutionSuccessful)
		}
	}
}

// TestSynthRealHeaderOlderThanCode: Debian's real HIP 5.2.3 header lacks the
// graph memory-node API a package uses (a struct with nested fields, which
// synthesis cannot declare from use): the package is analyzed with
// hiplint's declarations instead, the note says which header served and
// why, and the hazard, which needs the C types, is found. It used to fall to
// tier 3 and miss it (HL3004 needs the alloc node's parameters).
func TestSynthRealHeaderOlderThanCode(t *testing.T) {
	if _, err := os.Stat(realHIPHeader); err != nil {
		t.Skipf("%s not installed (apt-get install libamdhip64-dev): the older-header case needs the real header", realHIPHeader)
	}
	t.Parallel()
	const dir = "cmd/hiplint/testdata/realnewer"
	pkg := "github.com/hiplint/hiplint/" + dir
	res, line := loadReport(t, os.Environ(), pkg, "./"+dir)
	require.Equal(t, exitFindings, res.code, "stderr: %s", res.stderr)
	assert.Equal(t, pkg+" analyzed gpu", line)
	assert.Equal(t, sortedMarks(markedHazards(t, dir+"/realnewer.go")), marksOf(parseText(t, res.stdout)))
	assert.Regexp(t, `realnewer: note: cgo failed \([^)]*could not determine what C\.hip[A-Za-z]+ refers to\); `+
		`the machine's runtime header lacks 3 C names the package uses that hiplint's declarations have \(hipGraphAddMemAllocNode, hipGraphAddMemFreeNode, hipMemAllocNodeParams\): `+
		`served <hip/hip_runtime_api\.h> by hiplint's declarations instead of the machine's: analyzed with the runtime's C types`, res.stderr)
	assert.NotContains(t, res.stderr, "without C types")
	assert.NotContains(t, res.stderr, "declared", "nothing synthesized")

	// With hiplint's declarations asked for, the same finding and no note.
	own := runFresh(t, os.Environ(), "-headers=hiplint", "./"+dir)
	require.Equal(t, exitFindings, own.code, "stderr: %s", own.stderr)
	assert.Equal(t, marksOf(parseText(t, res.stdout)), marksOf(parseText(t, own.stdout)))
	assert.NotContains(t, own.stderr, "cgo failed")
}

// TestSynthMissingImportKeepsCTypes: a module whose package imports a
// package no module provides (unixpickle/cuda's GOPATH-era imports, a
// module not yet fetched) gets no cgo step from go list; hiplint sets the
// import aside for cgo to run, so the package keeps the runtime's C types
// and the graph hazard, which needs them, is found (it used to be analyzed
// at tier 3 and miss it; forced to tier 3 it still does). The missing
// import stays visible: its error line, the load report's "partial", the
// note.
func TestSynthMissingImportKeepsCTypes(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(freshRoot(t), "cmd/hiplint/testdata/missingimport")
	const pkg = "example.com/missingimport/graphs"
	env := append(freshEnv(t), "GOPROXY=off", "GOFLAGS=-mod=mod")
	lint := func(env []string) (result, string) {
		report := filepath.Join(t.TempDir(), "load.txt")
		res := runCmdIn(t, dir, append(env, "HIPLINT_LOADREPORT="+report), hiplintBin, "./...")
		data, err := os.ReadFile(report)
		require.NoError(t, err, "stderr: %s", res.stderr)
		return res, regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(pkg) + ` .*$`).FindString(string(data))
	}
	var want []mark
	for _, m := range markedHazards(t, "cmd/hiplint/testdata/missingimport/graphs/graphs.go") {
		want = append(want, mark{"graphs/graphs.go", m.line, m.id})
	}
	require.NotEmpty(t, want)

	res, line := lint(env)
	require.Equal(t, exitFindings, res.code, "stderr: %s", res.stderr)
	assert.Equal(t, pkg+" partial gpu", line, "analyzed with its C types, an import not found")
	assert.Equal(t, sortedMarks(want), marksOf(parseText(t, res.stdout)))
	assert.Contains(t, res.stderr, pkg+": note: cgo failed (not run: its import github.com/hiplint-absent/memalloc was not found); "+
		"ran cgo with its imports that were not found set aside (github.com/hiplint-absent/memalloc; the code that uses them is analyzed as with any import not found): "+
		"analyzed with the runtime's C types")
	assert.Regexp(t, `(?m)^hiplint: `+regexp.QuoteMeta(pkg)+`: graphs/graphs\.go:12:8: could not import github\.com/hiplint-absent/memalloc`, res.stderr,
		"the missing import is still an error line")
	assert.NotContains(t, res.stderr, "without C types")
	assert.NotContains(t, res.stderr, "redeclared", "the import set aside is put back before type-checking")

	forced, line := lint(append(env, "HIPLINT_TIER3=force"))
	assert.Equal(t, pkg+" tier3 gpu", line)
	assert.Empty(t, marksOf(parseText(t, forced.stdout)), "at tier 3 the hazard is missed: it needs the C types")
}
