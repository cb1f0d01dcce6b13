package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
)

// Bad input: packages that do not type-check, cgo errors, patterns naming
// nothing, and functions far larger or deeper than people write. Each gets
// one message for its package, the other packages are still analyzed, and
// the run ends in bounded time without an internal error.

// goodSrc leaks a module: the finding that must survive its neighbors.
const goodSrc = `// Package good loads a module and never unloads it.
package good

/*
#cgo CFLAGS: -I${SRCDIR}/../include
#include <hip/hip_runtime_api.h>
*/
import "C"

import "unsafe"

// Load leaks the module it loads.
func Load(image unsafe.Pointer) C.hipFunction_t {
	var m C.hipModule_t
	if C.hipModuleLoadData(&m, image) != C.hipSuccess {
		return nil
	}
	var f C.hipFunction_t
	C.hipModuleGetFunction(&f, m, nil)
	return f
}
`

const typeErrSrc = `// Package typeerr does not type-check.
package typeerr

// Size returns a value of the wrong type.
func Size() int {
	return "not an int"
}

// Other has a second error.
func Other() { undefined() }
`

const cgoErrSrc = `// Package cgoerr has a cgo preamble that does not compile.
package cgoerr

/*
int broken( {
*/
import "C"

// Call calls the broken function.
func Call() { C.broken() }
`

// badModule writes a module example.com/bad with the fixture HIP header
// under include/ and one package per entry of pkgs (directory → source),
// and returns its directory: a fixtureSlot, where a test that writes good
// as an earlier one did finds its cgo and compile in the build cache (the
// four tests all have it).
func badModule(t *testing.T, pkgs map[string]string) string {
	t.Helper()
	dir := fixtureSlot(t)
	for _, h := range []string{"hip_runtime_api.h", "hip_version.h"} { // the first includes the second
		copyFile(t, filepath.Join(repoRoot, "testdata", "include", "hip", h), filepath.Join(dir, "include", "hip", h))
	}
	require.NoError(t, os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/bad\n\ngo 1.26\n"), 0o644))
	for pkg, src := range pkgs {
		require.NoError(t, os.MkdirAll(filepath.Join(dir, pkg), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, pkg, pkg+".go"), []byte(src), 0o644))
	}
	return dir
}

// assertOneMessage asserts that stderr holds exactly one error line for pkg
// (a compiler's output may continue on the lines below it).
func assertOneMessage(t *testing.T, stderr, pkg string) {
	t.Helper()
	n := len(regexp.MustCompile(`(?m)^hiplint: `+regexp.QuoteMeta(pkg)+`: `).FindAllString(stderr, -1))
	assert.Equal(t, 1, n, "messages for %s in:\n%s", pkg, stderr)
}

// assertNoInternalError asserts that no analyzer panicked or failed.
func assertNoInternalError(t *testing.T, res result) {
	t.Helper()
	for _, s := range []string{"internal error", "panic", "goroutine "} {
		assert.NotContains(t, res.stderr, s)
		assert.NotContains(t, res.stdout, s)
	}
}

// assertGoodFinding asserts that the good package's leak was reported.
func assertGoodFinding(t *testing.T, res result) {
	t.Helper()
	assert.Equal(t, exitFindings, res.code, "the good package's findings decide the exit status")
	assert.Regexp(t, `(?m)^good/good\.go:\d+:\d+: .*\(HL2001\)$`, res.stdout)
}

func TestBadInputTypeErrorBesideGoodPackage(t *testing.T) {
	t.Parallel()
	dir := badModule(t, map[string]string{"good": goodSrc, "typeerr": typeErrSrc})
	res := hiplint(t, dir, "./...")
	assertGoodFinding(t, res)
	assertOneMessage(t, res.stderr, "example.com/bad/typeerr")
	assert.Contains(t, res.stderr, `typeerr/typeerr.go:6:9: cannot use "not an int"`)
	assert.Contains(t, res.stderr, "(and 1 more errors)")
	assertNoInternalError(t, res)
}

func TestBadInputCgoErrorBesideGoodPackage(t *testing.T) {
	t.Parallel()
	dir := badModule(t, map[string]string{"good": goodSrc, "cgoerr": cgoErrSrc})
	res := hiplint(t, dir, "./...")
	assertGoodFinding(t, res)
	assertOneMessage(t, res.stderr, "example.com/bad/cgoerr")
	assert.Contains(t, res.stderr, "cgoerr.go")
	assertNoInternalError(t, res)
}

func TestBadInputMissingDirectory(t *testing.T) {
	t.Parallel()
	dir := badModule(t, map[string]string{"good": goodSrc})

	res := hiplint(t, dir, "./good", "./nosuchdir")
	assertGoodFinding(t, res)
	note := headersNote(t, hipHeader)
	require.True(t, strings.HasPrefix(res.stderr, note), "the note on headers comes first")
	errs := strings.TrimPrefix(res.stderr, note)
	assert.Regexp(t, `^hiplint: \./nosuchdir: .*directory not found\n$`, errs, "one message")
	assertNoInternalError(t, res)

	res = hiplint(t, dir, "./nosuchdir")
	assert.Equal(t, exitError, res.code)
	assert.Empty(t, res.stdout)
	assert.Equal(t, 1, strings.Count(res.stderr, "hiplint: "), "one message")
}

// hugeBound is how much CPU time (user + system, the run's and its
// children's) a run on the huge packages may take. It is generous: cgo and
// type-checking a 20,000-statement function take seconds; what matters is
// that the run ends. It bounds CPU time, not wall time: on the shared
// machines that run the tests (load average 30-50 on 2 cores), a run of a
// few seconds of CPU took 5.5 minutes of wall time.
const hugeBound = 120 * time.Second

// hugeSrc is a cgo package with one function of n statements, each a runtime
// call in a branch: if/else pairs over copies, synchronizations, module loads
// and unloads, allocations and frees.
func hugeSrc(n int) string {
	var b strings.Builder
	b.WriteString(`// Package huge has one function of ` + fmt.Sprint(n) + ` runtime calls in branches.
package huge

/*
#cgo CFLAGS: -I${SRCDIR}/../include
#include <hip/hip_runtime_api.h>
*/
import "C"

import "unsafe"

// Huge calls the runtime in every branch.
func Huge(n int, p, q unsafe.Pointer) {
	var m C.hipModule_t
	var s C.hipStream_t
`)
	calls := [][2]string{
		{"C.hipDeviceSynchronize()", "C.hipMemcpy(q, p, 64, C.hipMemcpyHostToDevice)"},
		{"C.hipModuleLoad(&m, nil)", "C.hipStreamSynchronize(s)"},
		{"C.hipModuleUnload(m)", "C.hipMalloc(&p, 64)"},
		{"C.hipMemcpy(q, p, 64, C.hipMemcpyDeviceToDevice)", "C.hipFree(p)"},
		{"C.hipStreamCreate(&s)", "C.hipMemset(q, 0, 64)"},
	}
	for i := range n / 2 {
		c := calls[i%len(calls)]
		fmt.Fprintf(&b, "\tif n > %d {\n\t\t%s\n\t} else {\n\t\t%s\n\t}\n", i, c[0], c[1])
	}
	b.WriteString("}\n")
	return b.String()
}

// deepSrc is a cgo package with one function whose ifs nest depth deep,
// loading modules and copying on the way in, unloading and synchronizing on
// the way out.
func deepSrc(depth int) string {
	var b strings.Builder
	b.WriteString(`// Package deep nests ifs ` + fmt.Sprint(depth) + ` deep.
package deep

/*
#cgo CFLAGS: -I${SRCDIR}/../include
#include <hip/hip_runtime_api.h>
*/
import "C"

import "unsafe"

// Deep calls the runtime at every level.
func Deep(n int, p, q unsafe.Pointer) {
	var m C.hipModule_t
`)
	tabs := func(k int) string { return strings.Repeat("\t", k) }
	for i := range depth {
		fmt.Fprintf(&b, "%sif n > %d {\n", tabs(i+1), i)
		if i%2 == 0 {
			fmt.Fprintf(&b, "%sC.hipModuleLoad(&m, nil)\n", tabs(i+2))
		} else {
			fmt.Fprintf(&b, "%sC.hipMemcpy(q, p, 64, C.hipMemcpyDeviceToDevice)\n", tabs(i+2))
		}
	}
	for i := depth - 1; i >= 0; i-- {
		if i%2 == 0 {
			fmt.Fprintf(&b, "%sC.hipModuleUnload(m)\n", tabs(i+2))
		} else {
			fmt.Fprintf(&b, "%sC.hipDeviceSynchronize()\n", tabs(i+2))
		}
		fmt.Fprintf(&b, "%s}\n", tabs(i+1))
	}
	b.WriteString("}\n")
	return b.String()
}

// TestBadInputHugeFunctions runs hiplint on a function of 20,000 runtime
// calls in branches and one nested 200 deep, beside the good package: the
// run must end within hugeBound of CPU time with no internal error, and the good
// package's finding must still be reported. CI runs it with 2,000 calls,
// HIPLINT_LONG=1 with 20,000 (docs/reliability.md). Before cgo's wrapper
// temporaries stopped counting as aliases in memcpysync, 2,000 calls took
// over 7 minutes and 4 GB.
func TestBadInputHugeFunctions(t *testing.T) {
	t.Parallel()
	calls := 2000
	if os.Getenv("HIPLINT_LONG") != "" {
		calls = 20000
	}
	dir := badModule(t, map[string]string{"good": goodSrc, "huge": hugeSrc(calls), "deep": deepSrc(200)})
	start := time.Now()
	res := hiplint(t, dir, "./...")
	t.Logf("hiplint on the huge packages took %v, %v of CPU", time.Since(start), res.cpu)
	assert.Less(t, res.cpu, hugeBound)
	assertGoodFinding(t, res)
	assertNoInternalError(t, res)
	// Whatever the analyzers find in the huge packages, they say it at most
	// once per statement, and the run goes on to the other packages.
	for _, pkg := range []string{"huge", "deep"} {
		n := len(regexp.MustCompile(`(?m)^`+pkg+`/`+pkg+`\.go:\d+:\d+: `).FindAllString(res.stdout, -1))
		t.Logf("%s: %d findings", pkg, n)
	}
	assert.NotContains(t, res.stderr, "example.com/bad/good")
}
