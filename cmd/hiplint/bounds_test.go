package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hiplint/hiplint/internal/gotogen"
	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
)

// Issue 29 items 2 and 3, through the command: walks over types and the
// solver are bounded by construction, and a function over its analysis
// budget becomes a note naming it while the run goes on.

// boundsModule writes a module of one package, p, from the named sources,
// with the fixture headers, and returns its directory.
func boundsModule(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for _, h := range []string{"hip_runtime_api.h", "hip_version.h"} {
		copyFile(t, filepath.Join(repoRoot, "testdata", "include", "hip", h), filepath.Join(dir, "include", "hip", h))
	}
	require.NoError(t, os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/bounds\n\ngo 1.26\n"), 0o644))
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "p"), 0o755))
	for name, src := range files {
		require.NoError(t, os.WriteFile(filepath.Join(dir, "p", name), []byte(src), 0o644))
	}
	return dir
}

// boundedRun runs the binary under test in dir with extra environment,
// killing it after limit: a hang is a test failure, not a stuck test.
func boundedRun(t *testing.T, dir string, limit time.Duration, env []string, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, hiplintBin, args...)
	cmd.Dir, cmd.Env = dir, append(os.Environ(), env...)
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	_ = cmd.Run()
	res := result{stdout: stdout.String(), stderr: stderr.String(), code: cmd.ProcessState.ExitCode()}
	t.Logf("hiplint %v: exit %d after %v, %s\nstdout:\n%s\nstderr:\n%s", args, res.code, time.Since(start).Round(time.Millisecond), cpuTime(cmd.ProcessState), res.stdout, res.stderr)
	require.NoError(t, ctx.Err(), "hiplint did not finish within %v", limit)
	return res
}

const cyclePreamble = `package p

/*
#cgo CFLAGS: -I${SRCDIR}/../include
#include <hip/hip_runtime_api.h>
*/
import "C"

import "unsafe"

`

// An instantiation cycle (go build rejects it; the type checker hands the
// analyzers ever larger instantiations) in a package that calls the
// runtime hung hiplint with growing memory: modulebalance's walk over a
// parameter's type (TypeHolds) expanded A[int], A[A[int]], ... forever,
// and go/types' own lookups do the same through embedded fields (B, E).
// Now the run ends, prints the type errors, and still reports the hazard
// outside the broken declarations.
func TestInstantiationCyclesEnd(t *testing.T) {
	t.Parallel()
	dir := boundsModule(t, map[string]string{"p.go": cyclePreamble + `type A[T any] struct{ a *A[A[T]] }

type B[T any] struct {
	*B[B[T]]
	m C.hipModule_t
}

type P[T any] struct{ q *Q[P[T]] }
type Q[T any] struct{ p *P[Q[T]] }

func (b *B[T]) Free(p unsafe.Pointer) { C.hipFree(p) }

type Runtime interface{ Free(p unsafe.Pointer) }

type Holder struct{ B[int] }

func Use(x *A[int], b B[int], q Q[int], h *Holder, m C.hipModule_t, name *C.char) {
	var f C.hipFunction_t
	C.hipModuleGetFunction(&f, m, name)
}

func Load(path *C.char, r Runtime) {
	var m C.hipModule_t
	C.hipModuleLoad(&m, path)
	var x A[int]
	var b B[int]
	var q Q[int]
	Use(&x, b, q, &Holder{}, m, path)
	r.Free(nil)
	C.hipModuleUnload(m)
}

func Copy(dst, src unsafe.Pointer) float32 {
	C.hipMemcpy(dst, src, 4, C.hipMemcpyDeviceToDevice)
	return *(*float32)(dst)
}
`})
	res := boundedRun(t, dir, 3*time.Minute, nil, "./...")
	assertNoCrash(t, res)
	assert.Equal(t, exitFindings, res.code, "findings, and the type errors printed")
	assert.Contains(t, res.stderr, "instantiation cycle")
	assert.Contains(t, res.stdout, "this dereference reads dst on the host before the device-to-device copy", "the rest of the package is analyzed")
}

// A function over its analysis budget (here a tiny one, through
// HIPLINT_BUDGET) is left out with a note naming it, as the tier-3 notes
// are printed (not an error), and the other functions of the package are
// analyzed as before.
func TestBudgetNoteNamesTheFunction(t *testing.T) {
	t.Parallel()
	src := gotogen.Package("p", "${SRCDIR}/../include", gotogen.Options{Labels: 40}) + `
func Other(dst, src unsafe.Pointer) float32 {
	C.hipMemcpy(dst, src, 4, C.hipMemcpyDeviceToDevice)
	return *(*float32)(dst)
}
`
	dir := boundsModule(t, map[string]string{"p.go": src})
	res := boundedRun(t, dir, 3*time.Minute, []string{"HIPLINT_BUDGET=work=8"}, "-memcpysync", "./...")
	assertNoCrash(t, res)
	assert.Equal(t, exitFindings, res.code)
	assert.Regexp(t, `hiplint: example.com/bounds/p: note: memcpysync left out Dispatch \(p/p.go:\d+:1\) over its analysis budget: its solving took more than 8 steps per node \(\d+ nodes\); `, res.stderr)
	assert.Equal(t, 1, strings.Count(res.stderr, "left out"), "one note, however often the function is analyzed")
	assert.Equal(t, 1, strings.Count(res.stdout, "(HL1001)"), "Other's finding, none of Dispatch's")
	assert.Contains(t, res.stdout, "this dereference reads dst on the host")

	// Within the default budget, the same package reports Dispatch's hazards
	// and no note.
	res = boundedRun(t, dir, 3*time.Minute, nil, "-memcpysync", "./...")
	assert.Equal(t, exitFindings, res.code)
	assert.NotContains(t, res.stderr, "left out")
	assert.Greater(t, strings.Count(res.stdout, "(HL1001)"), 1)
}

// modulebalance's path analysis has the same budget: over it, the function's
// findings are left out with a note, and within it they are reported.
func TestBudgetNoteModulebalance(t *testing.T) {
	t.Parallel()
	dir := boundsModule(t, map[string]string{"p.go": cyclePreamble + `func Leak(path *C.char, fail bool) error {
	var m C.hipModule_t
	if C.hipModuleLoad(&m, path) != C.hipSuccess {
		return nil
	}
	if fail {
		return nil
	}
	C.hipModuleUnload(m)
	_ = unsafe.Pointer(nil)
	return nil
}
`})
	res := boundedRun(t, dir, 3*time.Minute, []string{"HIPLINT_BUDGET=work=1"}, "-modulebalance", "./...")
	assertNoCrash(t, res)
	assert.Equal(t, exitClean, res.code, "a note is no error")
	assert.Empty(t, res.stdout)
	assert.Regexp(t, `example.com/bounds/p: note: modulebalance left out Leak \(p/p.go:\d+:1\) over its analysis budget`, res.stderr)

	res = boundedRun(t, dir, 3*time.Minute, nil, "-modulebalance", "./...")
	assert.Equal(t, exitFindings, res.code)
	assert.Contains(t, res.stdout, "(HL2001)")
	assert.NotContains(t, res.stderr, "left out")
}
