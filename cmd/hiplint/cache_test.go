package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
)

// The result cache (docs/cache.md) through the built binary: a warm run
// prints what a cold run and an uncached run print, byte for byte, and
// analyzes nothing; an edit re-analyzes the edited package and its
// dependents only; a header's contents, a flag and hiplint.toml are part of
// the key; concurrent runs, a killed run and a corrupt entry leave a usable
// cache; -cache=off writes nothing; the size bound trims. What was analyzed
// is read from HIPLINT_CACHE_STATS, not from timings.

// cacheModule writes a module of three packages: reload and unloadorder
// (copies of the examples, with their hazards) and user, which imports
// reload. unloadorder also includes hdr.h from an include directory outside
// the module, given by CGO_CFLAGS as a system header would be. It returns
// the module's directory and the include directory, the test's own.
func cacheModule(t *testing.T) (dir, include string) {
	t.Helper()
	dir, include = t.TempDir(), t.TempDir()
	require.NoError(t, writeCacheModule(dir, include))
	return dir, include
}

// sharedCache holds sharedCacheModule's module.
var sharedCache struct {
	once         sync.Once
	dir, include string
	err          error
}

// sharedCacheModule is cacheModule's module, one per test binary, for the
// tests that do not change it (each with a result cache of its own): cgo
// and the compile of its packages, keyed on their directory, run once
// (about 4 s of CPU), not once per test.
func sharedCacheModule(t *testing.T) (dir, include string) {
	t.Helper()
	sharedCache.once.Do(func() {
		sharedCache.dir, sharedCache.err = os.MkdirTemp(testTmp, "cached-")
		if sharedCache.err == nil {
			sharedCache.include, sharedCache.err = os.MkdirTemp(testTmp, "include-")
		}
		if sharedCache.err == nil {
			sharedCache.err = writeCacheModule(sharedCache.dir, sharedCache.include)
		}
	})
	require.NoError(t, sharedCache.err)
	return sharedCache.dir, sharedCache.include
}

// writeCacheModule writes cacheModule's module into dir and its header into
// include.
func writeCacheModule(dir, include string) error {
	write := func(name, text string) error {
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			return err
		}
		return os.WriteFile(name, []byte(text), 0o644)
	}
	if err := write(filepath.Join(dir, "go.mod"), "module example.com/cached\n\ngo 1.26\n"); err != nil {
		return err
	}
	fixtures := "-I" + filepath.Join(repoRoot, "testdata", "include")
	for _, name := range []string{"reload", "unloadorder"} {
		data, err := os.ReadFile(filepath.Join(repoRoot, "examples", name, name+".go"))
		if err != nil {
			return err
		}
		src := strings.Replace(string(data), "-I${SRCDIR}/../../testdata/include", fixtures, 1)
		if name == "unloadorder" {
			src = strings.Replace(src, "#include <stdlib.h>", "#include <stdlib.h>\n#include <hdr.h>", 1)
		}
		if err := write(filepath.Join(dir, name, name+".go"), src); err != nil {
			return err
		}
	}
	if err := write(filepath.Join(dir, "user", "user.go"), "package user\n\nimport \"example.com/cached/reload\"\n\n// Warm warms up.\nfunc Warm(p []string) error { return reload.WarmUp(p) }\n"); err != nil {
		return err
	}
	return write(filepath.Join(include, "hdr.h"), "#define HDR_VERSION 1\n")
}

// cacheRun is one run's output and what it analyzed.
type cacheRun struct {
	result
	stats cacheStats
}

// runCached runs hiplint in dir with the cache in cache and the include
// directory in CGO_CFLAGS.
func runCached(t *testing.T, dir, cache, include string, args ...string) cacheRun {
	t.Helper()
	stats := filepath.Join(t.TempDir(), "stats.json")
	env := append(os.Environ(), "HIPLINT_CACHE="+cache, "HIPLINT_CACHE_STATS="+stats, "CGO_CFLAGS=-I"+include)
	res := runCmdIn(t, dir, env, hiplintBin, args...)
	var s cacheStats
	if data, err := os.ReadFile(stats); err == nil {
		require.NoError(t, json.Unmarshal(data, &s))
	}
	return cacheRun{res, s}
}

func short(paths []string) []string { return trimmedSorted("example.com/cached/", paths) }

// trimmedSorted returns paths without prefix, sorted.
func trimmedSorted(prefix string, paths []string) []string {
	var out []string
	for _, p := range paths {
		out = append(out, strings.TrimPrefix(p, prefix))
	}
	slices.Sort(out)
	return out
}

// readCacheStats reads the HIPLINT_CACHE_STATS lines a language server
// session wrote to path, one per analysis (none when it wrote nothing).
func readCacheStats(t *testing.T, path string) []cacheStats {
	t.Helper()
	var out []cacheStats
	if raw, err := os.ReadFile(path); err == nil {
		for line := range strings.Lines(string(raw)) {
			var s cacheStats
			require.NoError(t, json.Unmarshal([]byte(line), &s))
			out = append(out, s)
		}
	}
	return out
}

// TestCacheWarmRunMatchesCold: in every format, the cold run (empty cache),
// the warm run and the uncached run print the same bytes and exit alike,
// and the warm run analyzes nothing.
func TestCacheWarmRunMatchesCold(t *testing.T) {
	t.Parallel()
	dir, include := sharedCacheModule(t)
	cache := filepath.Join(t.TempDir(), "cache")
	for _, format := range []string{"text", "json", "sarif"} {
		off := runCached(t, dir, cache, include, "-cache=off", "-format", format, "./...")
		require.Equal(t, exitFindings, off.code, "the module has findings")
		require.Equal(t, "-cache=off", off.stats.Off)
		cold := runCached(t, dir, cache, include, "-format", format, "./...")
		warm := runCached(t, dir, cache, include, "-format", format, "./...")
		for _, r := range []cacheRun{cold, warm} {
			assert.Equal(t, off.stdout, r.stdout, format)
			assert.Equal(t, off.stderr, r.stderr, format)
			assert.Equal(t, off.code, r.code, format)
		}
		if format == "text" {
			assert.Equal(t, []string{"reload", "unloadorder", "user"}, short(cold.stats.Analyzed), "cold")
			assert.Equal(t, 3, cold.stats.Stored)
		} else {
			assert.Empty(t, cold.stats.Analyzed, "entries serve every format")
		}
		assert.Empty(t, warm.stats.Analyzed, "warm")
		assert.Equal(t, []string{"reload", "unloadorder", "user"}, short(warm.stats.Hits))
	}
}

// TestCacheEditReanalyzesDependents: an edited file re-analyzes its package
// and the packages that import it when what they see of it changed, the
// others come from the cache, and the
// output is the uncached run's; so does an edit of a C header the cgo
// preamble includes from outside the module, a flag and a hiplint.toml.
func TestCacheEditReanalyzesDependents(t *testing.T) {
	t.Parallel()
	dir, include := cacheModule(t)
	cache := filepath.Join(t.TempDir(), "cache")
	runCached(t, dir, cache, include, "./...")
	// The uncached run on the same files with the same flags is made once:
	// its output depends on nothing else, and each such run costs a whole
	// analysis (docs/performance.md, Test suite time). edited forgets it.
	uncached := map[string]cacheRun{}
	edited := func() { clear(uncached) }
	check := func(what string, analyzed []string, args ...string) {
		t.Helper()
		args = append(args, "./...")
		got := runCached(t, dir, cache, include, args...)
		assert.Equal(t, analyzed, short(got.stats.Analyzed), what)
		key := strings.Join(args, "\x00")
		off, ok := uncached[key]
		if !ok {
			off = runCached(t, dir, cache, include, append([]string{"-cache=off"}, args...)...)
			uncached[key] = off
		} else {
			t.Logf("%s: the uncached run of %q on the same files is the one made before", what, args)
		}
		assert.Equal(t, off.stdout, got.stdout, what)
		assert.Equal(t, off.stderr, got.stderr, what)
		assert.Equal(t, off.code, got.code, what)
	}
	check("unchanged", nil)

	name := filepath.Join(dir, "reload", "reload.go")
	data, err := os.ReadFile(name)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(name, append(data, "\n// edited\n"...), 0o644))
	// reload's API and facts are as they were: user is answered from the
	// cache (early cutoff, TestCacheEarlyCutoff).
	edited()
	check("reload edited", []string{"reload"})
	check("after the edit", nil)

	// A file added to the package is an input too.
	require.NoError(t, os.WriteFile(filepath.Join(dir, "user", "more.go"), []byte("package user\n"), 0o644))
	edited()
	check("file added", []string{"user"})

	// The header's contents, not its name or the flags, change.
	require.NoError(t, os.WriteFile(filepath.Join(include, "hdr.h"), []byte("#define HDR_VERSION 2\n"), 0o644))
	edited()
	check("header edited", []string{"unloadorder"})
	check("after the header edit", nil)

	check("-checks", []string{"reload", "unloadorder", "user"}, "-checks", "HL2002")
	check("-checks again", nil, "-checks", "HL2002")

	require.NoError(t, os.WriteFile(filepath.Join(dir, "reload", "hiplint.toml"), []byte("checks = [\"all\", \"-HL2001\"]\n"), 0o644))
	// It applies to reload alone, and leaves its facts as they were.
	edited()
	check("hiplint.toml added", []string{"reload"})
}

// TestCacheConcurrentAndKilledRuns: runs sharing one cache at once print
// what an uncached run prints; a run killed with SIGKILL while it writes
// leaves a cache the next run uses; a truncated or altered entry, and a
// temporary file left behind, are misses, not errors.
func TestCacheConcurrentAndKilledRuns(t *testing.T) {
	t.Parallel()
	dir, include := sharedCacheModule(t)
	cache := filepath.Join(t.TempDir(), "cache")
	off := runCached(t, dir, cache, include, "-cache=off", "./...")

	var wg sync.WaitGroup
	runs := make([]cacheRun, 3)
	for i := range runs {
		wg.Go(func() { runs[i] = runCached(t, dir, cache, include, "./...") })
	}
	wg.Wait()
	for _, r := range runs {
		assert.Equal(t, off.stdout, r.stdout)
		assert.Equal(t, off.stderr, r.stderr)
		assert.Equal(t, off.code, r.code)
	}

	// Kill a run as soon as it has written an entry of its own.
	killed := filepath.Join(t.TempDir(), "cache")
	cmd := exec.Command(hiplintBin, "./...")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "HIPLINT_CACHE="+killed, "CGO_CFLAGS=-I"+include)
	require.NoError(t, cmd.Start())
	deadline := time.Now().Add(5 * time.Minute)
	for time.Now().Before(deadline) && len(entries(t, killed, "-r")) == 0 {
		time.Sleep(time.Millisecond)
	}
	require.NoError(t, cmd.Process.Signal(syscall.SIGKILL))
	cmd.Wait()
	after := runCached(t, dir, killed, include, "./...")
	assert.Equal(t, off.stdout, after.stdout, "after a killed run")
	assert.Equal(t, off.code, after.code)

	// Damage the entries: one truncated, one with a byte changed, and a
	// temporary file as a killed writer leaves it.
	list := entries(t, cache, "-r")
	require.Len(t, list, 3)
	data, err := os.ReadFile(list[0])
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(list[0], data[:len(data)/2], 0o600))
	data, err = os.ReadFile(list[1])
	require.NoError(t, err)
	data[len(data)-2] ^= 1
	require.NoError(t, os.WriteFile(list[1], data, 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(filepath.Dir(list[2]), ".tmp-123"), data[:10], 0o600))
	got := runCached(t, dir, cache, include, "./...")
	assert.Len(t, got.stats.Analyzed, 2, "the damaged entries are misses")
	assert.Equal(t, off.stdout, got.stdout)
	assert.Equal(t, off.stderr, got.stderr)
	assert.Equal(t, off.code, got.code)
	again := runCached(t, dir, cache, include, "./...")
	assert.Empty(t, again.stats.Analyzed, "and rewritten")
}

// entries lists the cache's files whose names end in suffix.
func entries(t *testing.T, cache, suffix string) []string {
	var out []string
	filepath.WalkDir(cache, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, suffix) {
			out = append(out, path)
		}
		return nil
	})
	slices.Sort(out)
	return out
}

// TestCacheOffAndBound: -cache=off creates nothing; with
// HIPLINT_CACHE_LIMIT, a trim removes the least recently used entries first.
func TestCacheOffAndBound(t *testing.T) {
	t.Parallel()
	dir, include := sharedCacheModule(t)
	cache := filepath.Join(t.TempDir(), "cache")
	runCached(t, dir, cache, include, "-cache=off", "./...")
	_, err := os.Stat(cache)
	assert.True(t, os.IsNotExist(err), "-cache=off created %s", cache)

	runCached(t, dir, cache, include, "./...")
	old := entries(t, cache, "-r")
	require.Len(t, old, 3)
	past := time.Now().Add(-48 * time.Hour)
	for _, name := range entries(t, cache, "") { // the stamp of the last trim too
		require.NoError(t, os.Chtimes(name, past, past))
	}
	var size int64
	for _, name := range old {
		fi, err := os.Stat(name)
		require.NoError(t, err)
		size += fi.Size()
	}
	// New entries (another -checks), the limit below old and new together.
	stats := filepath.Join(t.TempDir(), "stats.json")
	env := append(os.Environ(), "HIPLINT_CACHE="+cache, "HIPLINT_CACHE_STATS="+stats, "CGO_CFLAGS=-I"+include,
		"HIPLINT_CACHE_LIMIT="+strconv.FormatInt(size+size/2, 10))
	runCmdIn(t, dir, env, hiplintBin, "-checks", "HL2001", "./...")
	now := entries(t, cache, "-r")
	assert.Len(t, now, 3, "the three new entries stay, the old ones went")
	for _, name := range old {
		assert.NotContains(t, now, name)
	}
}

// TestColdBuildCacheStores: the first run with a result cache that has
// never seen this hiplint, on a module with a test, in a fresh Go build
// cache, stores its entries, and the next run answers from them. The go
// command writes the test main into the build cache while it lists (a file
// of the package "p.test", newer than the run's start); the cold path that
// lists beside the analysis took it for a file edited during the run and
// stored nothing, whenever the build cache was cold (CI).
func TestColdBuildCacheStores(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for name, text := range map[string]string{
		"go.mod":      "module example.com/cold\n\ngo 1.26\n",
		"p/p.go":      "package p\n\nfunc F() int { return 1 }\n",
		"p/p_test.go": "package p\n\nimport \"testing\"\n\nfunc TestF(t *testing.T) { F() }\n",
	} {
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644))
	}
	cache, gocache := t.TempDir(), t.TempDir()
	run := func() cacheStats {
		t.Helper()
		stats := filepath.Join(t.TempDir(), "stats.json")
		env := append(os.Environ(), "HIPLINT_CACHE="+cache, "HIPLINT_CACHE_STATS="+stats, "GOCACHE="+gocache)
		res := runCmdIn(t, dir, env, hiplintBin, "./...")
		require.Equal(t, 0, res.code, "%s", res.stderr)
		var s cacheStats
		data, err := os.ReadFile(stats)
		require.NoError(t, err)
		require.NoError(t, json.Unmarshal(data, &s))
		return s
	}
	cold := run()
	assert.Equal(t, 1, cold.Stored, "the cold run stores p's entry")
	warm := run()
	assert.Equal(t, []string{"example.com/cold/p"}, warm.Hits)
	assert.Empty(t, warm.Analyzed)
}
