package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hiplint/hiplint/internal/testenv"
	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
)

// The result cache's facts (docs/cache.md, "Facts"): a package's key hashes
// its dependencies' exported API and facts, not their keys, so an edit that
// changes neither re-analyzes the edited package alone (early cutoff); one
// that changes either re-analyzes its importers too. The edited package's
// dependencies are loaded from export data with their facts from the cache
// (Replayed). Every run prints what an uncached run prints.

const factsHW = `package hw

// #cgo CFLAGS: -I%INCLUDE%
// #include <hip/hip_runtime_api.h>
import "C"

import "unsafe"

// CopyD2D copies device memory; it returns before the copy lands.
func CopyD2D(dst, src unsafe.Pointer, size int) error {
	C.hipMemcpy(dst, src, C.size_t(size), C.hipMemcpyDeviceToDevice)
	return nil
}

// Sync waits for the current device.
func Sync() error { C.hipDeviceSynchronize(); return nil }

// Checksum reads device-visible memory on the host.
func Checksum(p unsafe.Pointer, count int) (sum float32) {
	for _, v := range unsafe.Slice((*float32)(p), count) {
		sum += v
	}
	return sum
}
`

const factsUser = `package user

import (
	"unsafe"

	"example.com/facts/hw"
)

// Sum copies src to dst and sums dst on the host.
func Sum(dst, src unsafe.Pointer, n int) float32 {
	hw.CopyD2D(dst, src, n)
	hw.Sync()
	return hw.Checksum(dst, n/4)
}
`

const factsApp = `package app

import (
	"unsafe"

	"example.com/facts/user"
)

// Run sums.
func Run(dst, src unsafe.Pointer) float32 { return user.Sum(dst, src, 64) }
`

// factsModule writes hw (the runtime calls), user (imports hw) and app
// (imports user) and returns the module's directory and hw's file. The
// directory is a fixtureSlot: a test that finds it where an earlier one
// wrote the same module finds hw's cgo and the compile of the three
// packages in the build cache (about 3 s of CPU; not where the test's CC
// is its own, as goAndCCWrappers' is: CC is in the key).
func factsModule(t *testing.T) (dir, hwFile string) {
	t.Helper()
	dir = fixtureSlot(t)
	write := func(name, text string) {
		t.Helper()
		require.NoError(t, os.MkdirAll(filepath.Dir(name), 0o755))
		require.NoError(t, os.WriteFile(name, []byte(text), 0o644))
	}
	write(filepath.Join(dir, "go.mod"), "module example.com/facts\n\ngo 1.26\n")
	hwFile = filepath.Join(dir, "hw", "hw.go")
	write(hwFile, strings.ReplaceAll(factsHW, "%INCLUDE%", filepath.Join(repoRoot, "testdata", "include")))
	write(filepath.Join(dir, "user", "user.go"), factsUser)
	write(filepath.Join(dir, "app", "app.go"), factsApp)
	return dir, hwFile
}

func shortFacts(paths []string) []string { return trimmedSorted("example.com/facts/", paths) }

// TestCacheEarlyCutoff: an edit of hw that changes neither its API nor its
// facts re-analyzes hw alone; one that changes a fact (Sync no longer
// synchronizes: user's read is now a finding), its exported API (a new
// function) or the positions of its declarations (a line added on top,
// which a finding's related position may name) re-analyzes its importers
// too. Each run prints what -cache=off prints.
func TestCacheEarlyCutoff(t *testing.T) {
	t.Parallel()
	dir, hwFile := factsModule(t)
	cache := filepath.Join(t.TempDir(), "cache")
	include := t.TempDir()
	// The uncached run on the files as they are is made once per state of
	// hw.go (as in TestCacheEditReanalyzesDependents): the checks "warm" and
	// "after ..." compare with the run their state already made.
	var off cacheRun
	uncached := false
	check := func(what string, analyzed []string, code int) cacheRun {
		t.Helper()
		got := runCached(t, dir, cache, include, "./...")
		assert.Equal(t, analyzed, shortFacts(got.stats.Analyzed), what)
		if !uncached {
			off, uncached = runCached(t, dir, cache, include, "-cache=off", "./..."), true
		} else {
			t.Logf("%s: the uncached run on the same files is the one made before", what)
		}
		assert.Equal(t, code, off.code, what+": %s%s", off.stdout, off.stderr)
		assert.Equal(t, off.stdout, got.stdout, what)
		assert.Equal(t, off.stderr, got.stderr, what)
		assert.Equal(t, off.code, got.code, what)
		return got
	}
	all := []string{"app", "hw", "user"}
	check("cold", all, exitClean)
	check("warm", nil, exitClean)

	edit := func(from, to string) {
		t.Helper()
		data, err := os.ReadFile(hwFile)
		require.NoError(t, err)
		require.Contains(t, string(data), from)
		require.NoError(t, os.WriteFile(hwFile, []byte(strings.Replace(string(data), from, to, 1)), 0o644))
		uncached = false
	}

	// A body edited (no line moves) and an unexported function added
	// below the last declaration: hw's facts and API are as they were, so
	// user and app are answered from the cache.
	edit("{ C.hipDeviceSynchronize(); return nil }", "{ C.hipDeviceSynchronize(); return error(nil) }")
	edit("\treturn sum\n}\n", "\treturn sum\n}\n\nfunc helper() int { return 1 }\n")
	got := check("body edited", []string{"hw"}, exitClean)
	assert.Equal(t, []string{"app", "user"}, shortFacts(got.stats.Hits))
	check("after the body edit", nil, exitClean)

	// Sync no longer synchronizes: its fact changes, and user's host read
	// after the copy is a finding.
	edit("{ C.hipDeviceSynchronize(); return error(nil) }", "{ return error(nil) }")
	got = check("fact changed", all, exitFindings)
	assert.Contains(t, got.stdout, "user/user.go")
	assert.Contains(t, got.stats.Replayed, "example.com/facts/hw", "user analyzed with hw's cached facts")
	check("after the fact change", nil, exitFindings)

	// An exported function added: the API changes.
	edit("func helper()", "func Helper2() {}\n\nfunc helper()")
	check("API changed", all, exitFindings)

	// A line on top moves every declaration of hw.
	edit("package hw\n", "package hw\n\n")
	check("positions moved", all, exitFindings)
	check("after the move", nil, exitFindings)
}

// TestLSPFactsFromCache: after a server analyzed user (and hw with it, from
// syntax), an unsaved edit of user.go re-analyzes user with hw's facts from
// the cache (hw loaded from export data), and publishes what a server with
// -cache=off publishes for the same edit.
func TestLSPFactsFromCache(t *testing.T) {
	t.Parallel()
	dir, _ := factsModule(t)
	cache := filepath.Join(t.TempDir(), "cache")
	file := filepath.Join(dir, "user", "user.go")
	uri := fileURI(file)
	session := func(text string, args ...string) ([]json.RawMessage, []cacheStats) {
		t.Helper()
		stats := filepath.Join(t.TempDir(), "stats.jsonl")
		env := append(os.Environ(), "HIPLINT_CACHE="+cache, "HIPLINT_CACHE_STATS="+stats)
		p := startLSP(t, env, args...)
		var init map[string]any
		p.call(t, "initialize", map[string]any{"processId": os.Getpid(), "rootUri": fileURI(dir), "capabilities": map[string]any{}}, &init)
		p.notify(t, "initialized", map[string]any{})
		start := time.Now()
		p.notify(t, "textDocument/didOpen", map[string]any{
			"textDocument": map[string]any{"uri": uri, "languageId": "go", "version": 1, "text": text},
		})
		diags := p.waitDiagnostics(t, uri)
		// docs/performance.md, "Facts in the result cache".
		t.Logf("args %q: diagnostics %.2fs after didOpen", args, time.Since(start).Seconds())
		p.call(t, "shutdown", nil, nil)
		p.notify(t, "exit", nil)
		p.cmd.Wait()
		p.conn.Close()
		return diags, readCacheStats(t, stats)
	}
	first, stats := session(factsUser)
	require.NotEmpty(t, stats)
	assert.Empty(t, stats[0].Replayed, "nothing cached yet")

	// The edit drops the synchronization: a finding that rests on hw's
	// facts (CopyD2D copies, Checksum reads on the host).
	edited := strings.Replace(factsUser, "\thw.Sync()\n", "", 1)
	got, stats := session(edited)
	require.NotEmpty(t, stats)
	last := stats[len(stats)-1]
	assert.Equal(t, []string{filepath.Dir(file)}, last.Analyzed)
	assert.Equal(t, []string{"example.com/facts/hw"}, last.Replayed, "hw's facts from the cache")
	off, _ := session(edited, "-cache=off")
	assert.Equal(t, off, got)
	assert.NotEqual(t, first, got, "the edit is a finding")
	assert.NotEmpty(t, got)
}

// TestCacheEarlyCutoffAfterSyntaxLoad: the cutoff holds where hw's API
// reaches an incomplete C struct (hipStream_t: its underlying type is
// runtime/cgo.Incomplete's struct) and the cold run loads runtime/cgo from
// syntax while the edited run loads it from export data. user's external
// test imports app, so "app [user.test]" is a dependency that sees facts
// and not a pattern: the run that analyzes user loads every package from
// syntax (exportload.go), the one that analyzes hw alone does not. The
// interface hash must not depend on how runtime/cgo was loaded (zerfoo's
// internal/cuda re-analyzed its 51 importers on every edit).
func TestCacheEarlyCutoffAfterSyntaxLoad(t *testing.T) {
	t.Parallel()
	dir, hwFile := factsModule(t)
	cache := filepath.Join(t.TempDir(), "cache")
	include := t.TempDir()
	write := func(name, text string) {
		t.Helper()
		require.NoError(t, os.WriteFile(name, []byte(text), 0o644))
	}
	write(hwFile, strings.ReplaceAll(factsHW, "%INCLUDE%", filepath.Join(repoRoot, "testdata", "include"))+
		"\n// Stream is a HIP stream.\ntype Stream struct{ s C.hipStream_t }\n")
	write(filepath.Join(dir, "user", "sum_test.go"), "package user\n\nimport \"testing\"\n\nfunc TestSum(t *testing.T) {}\n")
	write(filepath.Join(dir, "user", "app_test.go"), "package user_test\n\nimport (\n\t\"testing\"\n\n\t\"example.com/facts/app\"\n)\n\nfunc TestRun(t *testing.T) { _ = app.Run }\n")
	// The uncached runs here load every package from syntax (4 s of CPU
	// each): the default run checks what each run analyzed, which is what
	// this test is for, and leaves the comparison with -cache=off to
	// TestCacheEarlyCutoff (the same three packages without the external
	// test that makes this load from syntax, every state compared);
	// HIPLINT_LONGTESTS=1 compares here too.
	compare := testenv.Long(t)
	check := func(what string, analyzed []string) cacheRun {
		t.Helper()
		got := runCached(t, dir, cache, include, "./...")
		assert.Equal(t, analyzed, shortFacts(got.stats.Analyzed), what)
		if !compare {
			t.Logf("%s: not compared with -cache=off in the default run", what)
			return got
		}
		off := runCached(t, dir, cache, include, "-cache=off", "./...")
		assert.Equal(t, off.stdout, got.stdout, what)
		assert.Equal(t, off.stderr, got.stderr, what)
		assert.Equal(t, off.code, got.code, what)
		return got
	}
	check("cold", []string{"app", "hw", "user"})
	data, err := os.ReadFile(hwFile)
	require.NoError(t, err)
	write(hwFile, string(data)+"\nfunc helper() int { return 1 }\n")
	got := check("unexported function added", []string{"hw"})
	assert.Equal(t, []string{"app", "user"}, shortFacts(got.stats.Hits))
}
