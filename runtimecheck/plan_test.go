package runtimecheck

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
)

// fixtureEnv points cgo at hiplint's declarations-only headers, so the
// testdata GPU module type-checks and compiles (without linking) anywhere.
func fixtureEnv(t *testing.T) []string {
	return withEnv(os.Environ(), "CGO_CFLAGS=-I"+fixtureInclude(t), "GOFLAGS=-mod=mod", "HIPLINT_PLATFORM=none")
}

func gpuModule(t *testing.T) string {
	dir, err := filepath.Abs("testdata/gpu")
	require.NoError(t, err)
	return dir
}

// gpuLoad is one findingsOf, with silent sites, over the packages of the
// GPU module that the tests reading findings and plans look at: each such
// load type-checks the standard library from syntax (AllSyntax) and builds
// nothing else the tests could change, so they share one (gpuFindings).
var gpuLoad struct {
	once sync.Once
	l    *load
	err  error
}

// gpuPackages are the packages of gpuLoad.
var gpuPackages = []string{"modules", "copysync", "graphfree", "xnack", "pipe", "gfree", "modset", "cargs", "copygo", "modunload", "capture"}

// gpuFindings returns what findingsOf(ctx, gpuModule(t), fixtureEnv(t),
// ["./pkg"...], silent) returns for pkgs, from gpuLoad: the initial
// packages of pkgs (their test variants and test mains included) and their
// findings, the silent sites left out unless silent. A package's findings
// and silent sites depend only on it and its dependencies, and the
// packages of pkgs with their imports make the same SSA program and call
// graph (newPlanner) as a load of pkgs alone. Its errors and notes are the
// whole load's.
func gpuFindings(t *testing.T, silent bool, pkgs ...string) *load {
	t.Helper()
	dir := gpuModule(t)
	for _, p := range pkgs {
		require.True(t, slices.Contains(gpuPackages, p), "%s is not among gpuPackages", p)
	}
	gpuLoad.once.Do(func() {
		var patterns []string
		for _, p := range gpuPackages {
			patterns = append(patterns, "./"+p)
		}
		gpuLoad.l, gpuLoad.err = findingsOf(context.Background(), dir, fixtureEnv(t), patterns, true)
	})
	require.NoError(t, gpuLoad.err)
	all := gpuLoad.l
	own := func(path string) bool {
		path = strings.TrimSuffix(strings.TrimSuffix(path, ".test"), "_test")
		for _, p := range pkgs {
			if path == "example.com/gpu/"+p {
				return true
			}
		}
		return false
	}
	l := &load{notes: all.notes, errs: all.errs}
	for _, p := range all.pkgs {
		if own(p.PkgPath) {
			l.pkgs = append(l.pkgs, p)
		}
	}
	for _, f := range all.findings {
		rel, err := filepath.Rel(dir, filepath.Dir(f.File))
		require.NoError(t, err)
		if slices.Contains(pkgs, rel) && (silent || !f.Silent) {
			l.findings = append(l.findings, f)
		}
	}
	return l
}

func TestPlanFindsTheTestsThatReachAFinding(t *testing.T) {
	l := gpuFindings(t, false, "modules")
	pkgs, findings, errs := l.pkgs, l.findings, l.errs
	require.Empty(t, errs)
	pl := newPlanner(pkgs)
	got := map[int][]string{}
	for _, f := range findings {
		fn := pl.enclosing(f.File, f.Line)
		require.NotNil(t, fn, f.Posn)
		var names []string
		for _, p := range pl.plan(fn) {
			names = append(names, p.Name)
		}
		got[f.Line] = names
		t.Logf("%s %s in %s: %v", f.Posn, f.ID, fn, names)
	}
	assert.Equal(t, []string{"TestLoadAll"}, got[36], "the leak in LoadAll")
	assert.Equal(t, []string{"TestLoadTwice"}, got[73], "the double unload in LoadTwice")
	assert.Empty(t, got[84], "Unreached has no test")
}

// TestPlanGoroutinesAndClosures: the shapes that hid runtime calls from
// confirm on the GPU (issue 32). A copy read inside a goroutine joined by a
// WaitGroup is planned for its own test and gets call markers inside the
// goroutine (the overlay builds); an unload in a deferred closure is traced;
// the launch after it is a silent HL2003 site, and a free under stream
// capture an HL3001 one.
func TestPlanGoroutinesAndClosures(t *testing.T) {
	dir := gpuModule(t)
	l := gpuFindings(t, true, "copygo", "modunload", "capture")
	require.Empty(t, l.errs)
	pl := newPlanner(l.pkgs)
	work := t.TempDir()
	insts := map[string]*Instrumented{}
	next := 1
	for _, pkg := range []string{"copygo", "modunload", "capture"} {
		d := filepath.Join(dir, pkg)
		var probes []probeAt
		for _, f := range l.findings {
			if filepath.Dir(f.File) == d {
				probes = append(probes, probeAt{f.File, f.Line, f.Col, strings.HasPrefix(f.ID, "HL1")})
			}
		}
		pdir := filepath.Join(work, pkg)
		require.NoError(t, os.MkdirAll(pdir, 0o755))
		inst, err := instrument(d, packageFiles(l.pkgs, d), pdir, next, probes)
		require.NoError(t, err)
		next += len(inst.Sites) + 1
		insts[d] = inst
	}
	all := append(append([]Finding(nil), l.findings...), traceCandidates(l.findings, insts, l.pkgs, dir)...)
	got := map[string][]string{}
	for _, f := range all {
		rel, _ := filepath.Rel(dir, f.File)
		var names []string
		for _, p := range pl.plan(pl.enclosing(f.File, f.Line)) {
			names = append(names, p.Name)
		}
		got[fmt.Sprintf("%s:%d %s", rel, f.Line, f.ID)] = names
	}
	t.Logf("%v", got)
	assert.Equal(t, []string{"TestStaleGo"}, got["copygo/copygo.go:57 HL1001"], "the read in StaleGo's goroutine")
	assert.Equal(t, []string{"TestSyncedGo"}, got["copygo/copygo.go:74 HL1001"], "the twin's read, a silent site")
	// Each launch is a use of its module, planned for its own test only.
	assert.Equal(t, []string{"TestLaunchLookedUp"}, got["modunload/modunload.go:77 HL2003"], "the launch after the deferred unload")
	assert.Equal(t, []string{"TestLaunchBorrowed"}, got["modunload/modunload.go:97 HL2003"], "the launch before the deferred release")
	assert.Equal(t, []string{"TestLaunchEvicted"}, got["modunload/modunload.go:158 HL2003"], "the launch after the eviction")
	assert.Equal(t, []string{"TestFreeCaptured"}, got["capture/capture.go:59 HL3001"], "the captured free")
	assert.Equal(t, []string{"TestFreeGraphAlloc"}, got["capture/capture.go:77 HL3001"], "the twin's captured free")

	unload := false
	for _, s := range insts[filepath.Join(dir, "modunload")].Sites {
		unload = unload || s.Line == 66 && s.API == "hipModuleUnload"
	}
	assert.True(t, unload, "the unload in Lookup's deferred closure is traced")
	var marker bool
	for _, s := range insts[filepath.Join(dir, "copygo")].Sites {
		marker = marker || s.Marker && s.Line == 57
	}
	assert.True(t, marker, "call markers around readLast inside the goroutine")
	if _, err := exec.LookPath("gcc"); err == nil {
		for _, pkg := range []string{"copygo", "modunload", "capture"} {
			cmd := exec.Command("go", "build", "-overlay="+insts[filepath.Join(dir, pkg)].Overlay, "./"+pkg)
			cmd.Dir = dir
			cmd.Env = fixtureEnv(t)
			out, err := cmd.CombinedOutput()
			require.NoError(t, err, "%s", out)
		}
	}
}
