package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv"
	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
)

// The loading tiers (internal/driver), through the built binary, on a
// machine whose C compiler finds no GPU headers, on copies of the fixtures
// whose cgo output no earlier run has cached (freshRoot: Go's cache does not
// key cgo's output on system headers).

const loadingDir = "testdata/src/loading"

func loadingPkg(name string) string {
	return "github.com/hiplint/hiplint/" + loadingDir + "/" + name
}

// freshEnv is a machine without GPU headers; its runs go in freshRoot
// (runFresh).
func freshEnv(t *testing.T) []string {
	return testenv.NoGPUHeaders(t)
}

// runFresh runs the binary under test with env in freshRoot, the copy of
// the fixtures that no earlier run has linted.
func runFresh(t *testing.T, env []string, args ...string) result {
	t.Helper()
	return runCmdIn(t, freshRoot(t), env, hiplintBin, args...)
}

func loadingHazards(t *testing.T, pkgs ...string) []mark {
	var marks []mark
	for _, p := range pkgs {
		files, err := filepath.Glob(filepath.Join(repoRoot, loadingDir, p, "*.go"))
		require.NoError(t, err)
		for _, f := range files {
			marks = append(marks, markedHazards(t, relToRoot(t, f))...)
		}
	}
	return sortedMarks(marks)
}

// lineCount counts the lines of stderr that match the regular expression re.
func lineCount(stderr, re string) int {
	return len(regexp.MustCompile(`(?m)`+re).FindAllString(stderr, -1))
}

// TestTiersEachPackageLoads: a missing SDK header, declarations that clash
// with the runtime header, an importer of such a package and a package with
// a Go type error all load and get their findings; each tier-3 package gets
// one note, the type error one line, and nothing says "could not import C".
func TestTiersEachPackageLoads(t *testing.T) {
	t.Parallel()
	env := freshEnv(t)
	// The default run (testenv.Sample) lints the six packages this test
	// asserts about one by one; cublas, absinclude, csource and preamblefn
	// each have a test of their own (TestSynthLibraryHeaderKeepsCTypes,
	// TestSynthAbsoluteInclude, TestSynthEmptiesCSources,
	// TestSynthPreambleHelper) that checks their findings and note in
	// every run. HIPLINT_LONGTESTS=1 lints all ten together, as
	// ./testdata/src/loading/... does.
	all := testenv.SampleStrings(t, []string{"missingsdk", "usesmissing", "conflict", "guarded", "typeerr", "cublas", "absinclude", "cycle", "csource", "preamblefn"},
		"missingsdk", "usesmissing", "conflict", "guarded", "typeerr", "cycle")
	args := []string{"./" + loadingDir + "/..."}
	if !testenv.Long(t) {
		args = nil
		for _, p := range all {
			args = append(args, "./"+loadingDir+"/"+p)
		}
	}
	res := runFresh(t, env, args...)
	require.Equal(t, exitFindings, res.code)
	assert.Equal(t, loadingHazards(t, all...), marksOf(parseText(t, res.stdout)))

	assert.Equal(t, 1, lineCount(res.stderr, `^hiplint: `+regexp.QuoteMeta(loadingPkg("conflict"))+`: note: cgo failed \(.+\); analyzed from its Go files without C types`), "one note for conflict")
	// The missing SDK header no longer costs the package its C types
	// (internal/synth): one note says how it was rescued.
	assert.Equal(t, 1, lineCount(res.stderr, `^hiplint: `+regexp.QuoteMeta(loadingPkg("missingsdk"))+`: note: cgo failed \([^)]*cublas_v2\.h[^)]*\); stubbed <cublas_v2\.h>; declared 1 C names from their use in Go \(cublasHandle_t\): analyzed with the runtime's C types`), "one note for missingsdk")
	assert.Equal(t, 0, lineCount(res.stderr, regexp.QuoteMeta(loadingPkg("usesmissing"))), "the importer loads like any package")
	assert.Equal(t, 1, lineCount(res.stderr, `^hiplint: `+regexp.QuoteMeta(loadingPkg("typeerr"))+`: `+loadingDir+`/typeerr/typeerr\.go:15:9: cannot use "not an int"`),
		"the type error, once (not again for the test variant)")
	assert.Equal(t, 0, lineCount(res.stderr, regexp.QuoteMeta(loadingPkg("guarded"))+`: [^n]`), "guarded declarations are no error")
	// A Go type error that involves no C does not undo the rescue (it gave
	// the package up: tier 3), and its line says where the cycle goes round.
	assert.Equal(t, 1, lineCount(res.stderr, `^hiplint: `+regexp.QuoteMeta(loadingPkg("cycle"))+`: note: cgo failed \([^)]*cublas_v2\.h[^)]*\); stubbed <cublas_v2\.h>; declared 1 C names from their use in Go \(cublasHandle_t\): analyzed with the runtime's C types`), "one note for cycle")
	assert.Equal(t, 1, lineCount(res.stderr, `^hiplint: `+regexp.QuoteMeta(loadingPkg("cycle"))+`: `+loadingDir+`/cycle/cycle\.go:17:\d+: instantiation cycle: `+loadingDir+`/cycle/cycle\.go:17:\d+: T instantiated as Tree\[T\]$`), "the cycle's line")
	assert.NotContains(t, res.stderr, "could not import C")
	assert.NotContains(t, res.stderr, "internal error")

	// With only the package with a type error, the error decides the status.
	res = runFresh(t, env, "-modulebalance=false", "./"+loadingDir+"/typeerr")
	assert.Equal(t, exitError, res.code)
	assert.Empty(t, res.stdout)
}

// TestTiersSystemHeadersOnly: -headers=system turns the fallbacks off; the
// missing header is an error printed once per package (not again for the
// test variant), and the importer names it as the cause of its own failure.
func TestTiersSystemHeadersOnly(t *testing.T) {
	t.Parallel()
	env := freshEnv(t)
	res := runFresh(t, env, "-headers=system", "./"+loadingDir+"/missingsdk", "./"+loadingDir+"/usesmissing")
	assert.Equal(t, exitError, res.code)
	assert.Empty(t, res.stdout)
	assert.Equal(t, 1, lineCount(res.stderr, `^hiplint: `+regexp.QuoteMeta(loadingPkg("missingsdk"))+`: `), "once, in:\n%s", res.stderr)
	assert.Regexp(t, `(?m)^hiplint: `+regexp.QuoteMeta(loadingPkg("usesmissing"))+`: not analyzed: its dependency `+
		regexp.QuoteMeta(loadingPkg("missingsdk"))+` did not load: .*(hip_runtime_api|cublas_v2)\.h`, res.stderr)
	assert.NotContains(t, res.stderr, "could not import C")
	assert.NotContains(t, res.stderr, "missingsdk.test", "the generated test main fails with its package: no line of its own")
	assert.NotContains(t, res.stderr, "\n ", "one line per package: no compiler output on continuation lines")
}

// TestTier3SaysLessNeverWrong: the analyzers' own testdata, with cgo made to
// fail in every package (HIPLINT_TIER3=force; an include of a header that
// does not exist alone no longer does: internal/synth stubs it): what
// hiplint reports at tier 3 is a subset of what it reports with the
// headers. Run in GOPATH mode, as analysistest lays testdata out.
//
// Each package is cgo and two whole analyses (about 2 s of CPU). The
// default run (testenv.Sample) keeps one fixture of each analyzer, the
// package whose findings rest on another's facts with that package
// (memcpysync/app on memcpysync/wrap: facts across packages at tier 3) and
// the regression of streamtype; HIPLINT_LONGTESTS=1 runs all fifteen.
func TestTier3SaysLessNeverWrong(t *testing.T) {
	t.Parallel()
	pkgs := testenv.SampleStrings(t, []string{
		"memcpysync/hazards", "memcpysync/cudrv", "memcpysync/wrap", "memcpysync/app",
		"memcpysync/streamtype", // a stream behind a getter: tier 3 once said a read on the copy's own stream was unordered
		"modulebalance/leaks", "modulebalance/safe", "modulebalance/realshapes",
		"graphfree/patterns", "graphfree/safe",
		"xnack/kernels", "xnack/xnackguard", "xnack/patterns", "xnack/patternsguarded", "xnack/twinhip",
	}, "memcpysync/wrap", "memcpysync/app", "memcpysync/streamtype", "modulebalance/leaks", "graphfree/patterns", "xnack/patterns")
	run := func(gopath string, broken bool) []string {
		cgoPkgs := 0
		for _, p := range pkgs {
			if copyTree(t, filepath.Join(repoRoot, "testdata", "src", p), filepath.Join(gopath, "src", p), broken) {
				cgoPkgs++
			}
		}
		copyTree(t, filepath.Join(repoRoot, "testdata", "include"), filepath.Join(gopath, "include"), false)
		env := append(os.Environ(), "GO111MODULE=off", "GOPATH="+gopath, "GOFLAGS=")
		if broken {
			env = append(env, "HIPLINT_TIER3=force")
		}
		args := make([]string, len(pkgs))
		for i, p := range pkgs {
			args[i] = "./" + p
		}
		cmd := runIn(t, filepath.Join(gopath, "src"), env, args...)
		require.NotEqual(t, exitUsage, cmd.code)
		if broken {
			assert.Equal(t, cgoPkgs, strings.Count(cmd.stderr, ": note: cgo failed"), "every cgo package at tier 3, once")
		}
		assert.NotContains(t, cmd.stderr, "internal error")
		var lines []string
		for _, l := range strings.Split(cmd.stdout, "\n") {
			if l != "" && !strings.HasPrefix(l, "\t") {
				lines = append(lines, l)
			}
		}
		return lines
	}
	full := run(t.TempDir(), false)
	tier3 := run(t.TempDir(), true)
	require.NotEmpty(t, full)
	require.NotEmpty(t, tier3, "tier 3 still finds hazards")
	for _, l := range tier3 {
		assert.True(t, slices.Contains(full, l), "reported at tier 3 only: %s", l)
	}
	t.Logf("tier 3 kept %d of %d findings", len(tier3), len(full))
}

// copyTree copies the regular files of dir to dst; with broken, each cgo
// preamble gets an include of a header that does not exist, on the line
// before import "C" (so that line numbers stay). It reports whether a file
// imports "C".
func copyTree(t *testing.T, dir, dst string, broken bool) (cgo bool) {
	t.Helper()
	require.NoError(t, filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if broken && strings.HasSuffix(path, ".go") {
			lines := strings.Split(string(data), "\n")
			for i := 1; i < len(lines); i++ {
				if lines[i] != `import "C"` {
					continue
				}
				cgo = true
				switch prev := strings.TrimSpace(lines[i-1]); {
				case prev == "*/":
					lines[i-1] = "#include <hiplint_absent_sdk.h> */"
				case strings.HasPrefix(prev, "//"):
					lines[i-1] = "// #include <hiplint_absent_sdk.h>"
				}
			}
			data = []byte(strings.Join(lines, "\n"))
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dst, rel)), 0o755); err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	}))
	return cgo
}

// runIn runs the binary under test in dir with env.
func runIn(t *testing.T, dir string, env []string, args ...string) result {
	t.Helper()
	return runCmdIn(t, dir, env, hiplintBin, args...)
}

// TestFailedCgoLeavesNothingInTMPDIR: cgo leaves its compiler input
// (cgo-gcc-input-N, .c) in TMPDIR whenever the C compiler fails, which is
// every tier-3 package and every round of synthesis: hiplint's loads give
// the go command a temporary directory of their own and remove it (was: two
// files left per failing cgo step, about a thousand a day on a busy machine).
func TestFailedCgoLeavesNothingInTMPDIR(t *testing.T) {
	t.Parallel()
	tmp := t.TempDir()
	res := runFresh(t, append(freshEnv(t), "TMPDIR="+tmp), "./"+loadingDir+"/conflict", "./"+loadingDir+"/cublas")
	require.Equal(t, exitFindings, res.code, "stderr: %s", res.stderr)
	require.Contains(t, res.stderr, "cgo failed", "cgo must have failed for the test to mean anything")
	entries, err := os.ReadDir(tmp)
	require.NoError(t, err)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	assert.Empty(t, names)
}
