package driver_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hiplint/hiplint/internal/driver"
	"github.com/hiplint/hiplint/internal/headerless"
	"github.com/hiplint/hiplint/internal/resultcache"
	"github.com/hiplint/hiplint/internal/testenv"
	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
)

// The header scan of a preamble is shared by the packages whose
// directories cannot change what it finds, and only by them.
const shadowSrc = `package %s

// #include <stdlib.h>
// #include <shadow/x.h>
import "C"

func F() { C.free(nil) }
`

// TestPlanCacheSharesHeaderScans: packages a and b have one preamble and
// nothing in their directories that the compiler could find: one scan
// serves both. Package c has the same preamble and a subdirectory shadow
// holding x.h, which cgo finds through -I c (go list does not list it:
// it is no file of the package): c is scanned with its directory, and an
// edit of c/shadow/x.h changes c's key, not a's or b's. With a flag that
// hiplint's resolver does not follow (-iprefix), the C compiler lists the
// headers (`cc -M`): two listings; without, the resolver does and the
// compiler runs once, for its default directories, or not at all when
// the cache holds them.
func TestPlanCacheSharesHeaderScans(t *testing.T) {
	t.Parallel()
	real, err := exec.LookPath("cc")
	if err != nil {
		t.Skip("no C compiler (cc):", err)
	}
	for _, resolver := range []bool{false, true} {
		name := "compiler"
		if resolver {
			name = "resolver"
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			pkgs := map[string]map[string]string{}
			for _, name := range []string{"a", "b", "c"} {
				pkgs[name] = map[string]string{name + ".go": strings.ReplaceAll(shadowSrc, "%s", name)}
			}
			dir := module(t, pkgs)
			hdr := filepath.Join(dir, "c", "shadow", "x.h")
			require.NoError(t, os.MkdirAll(filepath.Dir(hdr), 0o755))
			require.NoError(t, os.WriteFile(hdr, []byte("#define X 1\n"), 0o644))

			// A compiler that logs each run.
			bin := t.TempDir()
			log := filepath.Join(bin, "log")
			cc := filepath.Join(bin, "cc.sh")
			require.NoError(t, os.WriteFile(cc, []byte("#!/bin/sh\necho \"run $*\" >> '"+log+"'\nexec '"+real+"' \"$@\"\n"), 0o755))

			cfg := driver.Config{
				Dir: dir,
				Env: append(testenv.NoGPUHeaders(t), "GOCACHE="+t.TempDir(), "GOFLAGS=", "CC="+cc),
			}
			if !resolver {
				cfg.Env = append(cfg.Env, "CGO_CPPFLAGS=-iprefix /nonexistent/")
			}
			cache, err := resultcache.Open(t.TempDir(), 1<<20)
			require.NoError(t, err)
			plan := func() (map[string]resultcache.Key, string) {
				t.Helper()
				require.NoError(t, os.WriteFile(log, nil, 0o644))
				// No manifest kept: every scan runs again.
				p, err := driver.PlanCache(cfg, nil, nil, "./...")
				require.NoError(t, err)
				require.Empty(t, p.Uncacheable)
				keys := map[string]resultcache.Key{}
				for _, g := range p.Groups {
					assert.True(t, g.Cacheable, g.Path)
					keys[filepath.Base(g.Path)] = g.Key
				}
				runs, err := os.ReadFile(log)
				require.NoError(t, err)
				return keys, string(runs)
			}
			before, runs := plan()
			if resolver {
				assert.Equal(t, 0, strings.Count(runs, " -MG "), "no listing: the resolver\n%s", runs)
				assert.Equal(t, 1, strings.Count(runs, " -v "), "one probe of the default directories\n%s", runs)
				// With a cache, the probe is kept.
				for i := range 2 {
					require.NoError(t, os.WriteFile(log, nil, 0o644))
					_, err := driver.PlanCache(cfg, cache, nil, "./...")
					require.NoError(t, err)
					runs, err := os.ReadFile(log)
					require.NoError(t, err)
					assert.Equal(t, 1-i, strings.Count(string(runs), " -v "), "run %d with a cache\n%s", i, runs)
				}
			} else {
				assert.Equal(t, 2, strings.Count(runs, " -MG "), "scans: one for a and b, one for c\n%s", runs)
			}

			require.NoError(t, os.WriteFile(hdr, []byte("#define X 2\n"), 0o644))
			after, _ := plan()
			assert.Equal(t, before["a"], after["a"])
			assert.Equal(t, before["b"], after["b"])
			assert.NotEqual(t, before["c"], after["c"], "c/shadow/x.h is one of c's headers")
		})
	}
}

// TestPlanCacheKeysCompilerEnvironment: where the C compiler finds a
// header is part of a package's key even when the header scan's manifest,
// kept in the cache, still lists headers that are all unchanged: CPATH
// (include directories the compiler reads from the environment, not from
// its arguments) and the compiler program that CC names in the run's PATH.
func TestPlanCacheKeysCompilerEnvironment(t *testing.T) {
	t.Parallel()
	real, err := exec.LookPath("cc")
	if err != nil {
		t.Skip("no C compiler (cc):", err)
	}
	dir := module(t, map[string]map[string]string{"p": {"p.go": "package p\n\n// #include <probe.h>\nimport \"C\"\n\nvar X = C.PROBE\n"}})
	tmp := t.TempDir()
	var inc, bin [2]string
	for i := range 2 {
		inc[i] = filepath.Join(tmp, "inc"+string(rune('1'+i)))
		bin[i] = filepath.Join(tmp, "bin"+string(rune('1'+i)))
		require.NoError(t, os.MkdirAll(inc[i], 0o755))
		require.NoError(t, os.MkdirAll(bin[i], 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(inc[i], "probe.h"), []byte("#define PROBE "+string(rune('1'+i))+"\n"), 0o644))
		// mycc: the system compiler with its own include directory.
		require.NoError(t, os.WriteFile(filepath.Join(bin[i], "mycc"), []byte("#!/bin/sh\nexec '"+real+"' -I '"+inc[i]+"' \"$@\"\n"), 0o755))
	}
	cache, err := resultcache.Open(t.TempDir(), 1<<20)
	require.NoError(t, err)
	base := append(testenv.NoGPUHeaders(t), "GOCACHE="+t.TempDir(), "GOFLAGS=")
	key := func(env ...string) resultcache.Key {
		t.Helper()
		p, err := driver.PlanCache(driver.Config{Dir: dir, Env: append(slices.Clip(base), env...)}, cache, nil, "./...")
		require.NoError(t, err)
		require.Empty(t, p.Uncacheable)
		require.Len(t, p.Groups, 1)
		require.True(t, p.Groups[0].Cacheable, "the header scan ran")
		return p.Groups[0].Key
	}
	path := os.Getenv("PATH")

	k1 := key("CPATH="+inc[0], "PATH="+path)
	assert.Equal(t, k1, key("CPATH="+inc[0], "PATH="+path), "the same run twice")
	assert.NotEqual(t, k1, key("CPATH="+inc[1], "PATH="+path), "CPATH finds another probe.h")

	m1 := key("CC=mycc", "PATH="+bin[0]+string(filepath.ListSeparator)+path)
	assert.Equal(t, m1, key("CC=mycc", "PATH="+bin[0]+string(filepath.ListSeparator)+path), "the same run twice")
	assert.NotEqual(t, m1, key("CC=mycc", "PATH="+bin[1]+string(filepath.ListSeparator)+path), "PATH finds another mycc")
}

// TestPlanCacheTagsFromGOFLAGS: a #cgo line constrained by a build tag set
// through GOFLAGS (-tags=cuda) gives its include directory to the header
// scan, so an edit of a header found only through it changes the key.
func TestPlanCacheTagsFromGOFLAGS(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("cc"); err != nil {
		t.Skip("no C compiler (cc):", err)
	}
	inc := t.TempDir()
	hdr := filepath.Join(inc, "probe.h")
	require.NoError(t, os.WriteFile(hdr, []byte("#define PROBE 1\n"), 0o644))
	dir := module(t, map[string]map[string]string{"p": {"p.go": "package p\n\n// #cgo cuda CFLAGS: -I" + inc + "\n// #include <probe.h>\nimport \"C\"\n\nvar X = C.PROBE\n"}})
	cache, err := resultcache.Open(t.TempDir(), 1<<20)
	require.NoError(t, err)
	cfg := driver.Config{Dir: dir, Env: append(testenv.NoGPUHeaders(t), "GOCACHE="+t.TempDir(), "GOFLAGS=-tags=cuda")}
	key := func() resultcache.Key {
		t.Helper()
		p, err := driver.PlanCache(cfg, cache, nil, "./...")
		require.NoError(t, err)
		require.Len(t, p.Groups, 1)
		return p.Groups[0].Key
	}
	k1 := key()
	require.NoError(t, os.WriteFile(hdr, []byte("#define PROBE 2\n"), 0o644))
	assert.NotEqual(t, k1, key(), "probe.h is found through the cuda-tagged #cgo line")
}

// TestListCacheKeysFromPrestat: a cold run keys its packages while it
// analyzes them (ListCache, Prestat, then Key beside the analysis). The
// keys are PlanCache's, and a file edited after Prestat, before Key reads
// it (while the analysis may have read the old contents), makes Unchanged
// false, so that nothing is stored under a key of contents nobody
// analyzed. Without Prestat, Key would record the edited file's state and
// Unchanged would hold.
func TestListCacheKeysFromPrestat(t *testing.T) {
	t.Parallel()
	dir, cfg := pqModule(t)
	planned, err := driver.PlanCache(cfg, nil, nil, "./...")
	require.NoError(t, err)
	require.Len(t, planned.Groups, 2)

	listed, err := driver.ListCache(cfg, nil, nil, "./...")
	require.NoError(t, err)
	listed.Prestat()
	listed.Key()
	assert.Equal(t, keys(planned), keys(listed), "ListCache, Prestat and Key give PlanCache's keys")
	assert.True(t, listed.Unchanged())

	edited, err := driver.ListCache(cfg, nil, nil, "./...")
	require.NoError(t, err)
	edited.Prestat()
	file := filepath.Join(dir, "p", "p.go")
	require.NoError(t, os.WriteFile(file, []byte("package p\n\nfunc F() int { return 2 }\n"), 0o644))
	later := time.Now().Add(time.Minute)
	require.NoError(t, os.Chtimes(file, later, later))
	edited.Key()
	assert.False(t, edited.Unchanged(), "p.go changed after Prestat: the run's entries are not stored")
	assert.NotEqual(t, keys(planned)["example.com/m/p"], keys(edited)["example.com/m/p"], "the key reads the new contents")
}

// TestSearchDirsMatchCompiler: which of hiplint's GPU headers the C
// compiler finds, answered from the include directories (driver.SearchDirs,
// the defaults kept in the cache), is what the compiler itself answers
// (headerless.Missing), whether the headers come through CPATH, -I,
// -isystem or -idirafter; an -iquote or a relative directory is left to
// the compiler.
func TestSearchDirsMatchCompiler(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("cc"); err != nil {
		t.Skip("no C compiler (cc):", err)
	}
	tmp := t.TempDir()
	dir := func(name string, headers ...string) string {
		d := filepath.Join(tmp, name)
		for _, h := range headers {
			require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(d, h)), 0o755))
			require.NoError(t, os.WriteFile(filepath.Join(d, h), []byte("/* */\n"), 0o644))
		}
		return d
	}
	a := dir("a", "cuda.h")
	b := dir("b", "hip/hip_runtime.h", "hip/hip_runtime_api.h")
	c := dir("c", "cuda_runtime.h")
	d := dir("d", "cuda_runtime_api.h")
	base := testenv.NoGPUHeaders(t)
	cache, err := resultcache.Open(t.TempDir(), 1<<20)
	require.NoError(t, err)
	for _, extra := range [][]string{
		nil,
		{"CPATH=" + a},
		{"CGO_CFLAGS=-O2 -g -I" + b},
		{"CGO_CPPFLAGS=-isystem " + d, "CGO_CFLAGS=-idirafter " + c},
		{"C_INCLUDE_PATH=" + a, "CGO_CFLAGS=-I " + b + " -idirafter " + c + " -isystem" + d},
	} {
		env := append(slices.Clip(base), extra...)
		want := headerless.Missing(env)
		for range 2 { // the defaults probed, then kept
			cc, args := headerless.CompilerArgs(env)
			dirs, ok := driver.SearchDirs(env, cache, cc, args)
			require.True(t, ok, "%q", extra)
			assert.Equal(t, want, headerless.MissingFrom(dirs), "%q", extra)
		}
	}
	for _, flags := range []string{"-iquote " + a, "-I rel", "-include stdio.h"} {
		env := append(slices.Clip(base), "CGO_CFLAGS="+flags)
		cc, args := headerless.CompilerArgs(env)
		_, ok := driver.SearchDirs(env, cache, cc, args)
		assert.False(t, ok, flags)
	}
}

// TestPrestatFromTree: the cold path that lists while it analyzes takes
// the state of the module's files from a walk made before the analysis
// (StatTree): an edit after the walk fails Unchanged even though the plan
// is stat'ed after it; files outside the walk are stat'ed late and must
// have been modified before the run started (SettledBefore).
func TestPrestatFromTree(t *testing.T) {
	t.Parallel()
	dir, cfg := pqModule(t)
	planned, err := driver.PlanCache(cfg, nil, nil, "./...")
	require.NoError(t, err)

	require.Nil(t, driver.StatTree(dir, 3), "past its bound, no walk")
	tree := driver.StatTree(dir, 1000)
	require.NotNil(t, tree)
	listed, err := driver.ListCache(cfg, nil, nil, "./...")
	require.NoError(t, err)
	listed.PrestatFrom(tree)
	listed.Key()
	assert.Equal(t, keys(planned), keys(listed))
	assert.True(t, listed.Unchanged())
	assert.True(t, listed.SettledBefore(time.Now().Add(-time.Hour)), "every file walked: none late")

	tree = driver.StatTree(dir, 1000)
	file := filepath.Join(dir, "p", "p.go")
	require.NoError(t, os.WriteFile(file, []byte("package p\n\nfunc F() int { return 2 }\n"), 0o644))
	later := time.Now().Add(time.Minute)
	require.NoError(t, os.Chtimes(file, later, later))
	edited, err := driver.ListCache(cfg, nil, nil, "./...")
	require.NoError(t, err)
	edited.PrestatFrom(tree)
	edited.Key()
	assert.False(t, edited.Unchanged(), "p.go edited after the walk, before the plan's stat: nothing stored")

	// Only p walked: q's files are stat'ed late.
	partial, err := driver.ListCache(cfg, nil, nil, "./...")
	require.NoError(t, err)
	partial.PrestatFrom(driver.StatTree(filepath.Join(dir, "p"), 1000))
	partial.Key()
	assert.True(t, partial.Unchanged())
	assert.False(t, partial.SettledBefore(time.Now().Add(-time.Hour)), "q.go, stat'ed late, is newer than the start")
	assert.True(t, partial.SettledBefore(time.Now().Add(time.Hour)))
}

// pqModule is a module of two packages, q importing p, and its
// configuration for the cache plan's tests.
func pqModule(t *testing.T) (string, driver.Config) {
	dir := module(t, map[string]map[string]string{
		"p": {"p.go": "package p\n\nfunc F() int { return 1 }\n"},
		"q": {"q.go": "package q\n\nimport \"example.com/m/p\"\n\nfunc G() int { return p.F() }\n"},
	})
	return dir, driver.Config{Dir: dir, Env: append(testenv.NoGPUHeaders(t), "GOCACHE="+t.TempDir(), "GOFLAGS=")}
}

// keys are the plan's groups' keys, by path.
func keys(p *driver.CachePlan) map[string]resultcache.Key {
	out := map[string]resultcache.Key{}
	for _, g := range p.Groups {
		out[g.Path] = g.Key
	}
	return out
}
