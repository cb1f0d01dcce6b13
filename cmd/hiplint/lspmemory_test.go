package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hiplint/hiplint/internal/testenv"
	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
)

// The language server analyzes an edit in memory, from the directory's
// loaded graph (docs/editors.md, "Edits in memory"): no go command runs and
// no C compiler (so no cgo), and the diagnostics are those of a server that
// loads the edited buffer from scratch. An edit the graph cannot describe
// (new imports, a changed cgo file) and a dependency changed on disk load
// the directory again.

// goAndCCWrappers writes a go and a cc that log each run (one line each)
// before running the real ones, and returns the environment that puts
// them in charge and the two logs.
func goAndCCWrappers(t *testing.T) (env []string, goLog, ccLog string) {
	t.Helper()
	bin := t.TempDir()
	goLog, ccLog = filepath.Join(bin, "go.log"), filepath.Join(bin, "cc.log")
	realGo, err := exec.LookPath("go")
	require.NoError(t, err)
	realCC, err := exec.LookPath("gcc")
	if err != nil {
		realCC, err = exec.LookPath("cc")
	}
	require.NoError(t, err)
	write := func(name, log, real string) {
		script := fmt.Sprintf("#!/bin/sh\necho \"$*\" >> %q\nexec %q \"$@\"\n", log, real)
		require.NoError(t, os.WriteFile(filepath.Join(bin, name), []byte(script), 0o755))
	}
	write("go", goLog, realGo)
	write("cc", ccLog, realCC)
	for _, kv := range os.Environ() {
		switch {
		case strings.HasPrefix(kv, "PATH="):
			env = append(env, "PATH="+bin+string(os.PathListSeparator)+strings.TrimPrefix(kv, "PATH="))
		case strings.HasPrefix(kv, "CC="):
		default:
			env = append(env, kv)
		}
	}
	return append(env, "CC="+filepath.Join(bin, "cc")), goLog, ccLog
}

// logLines counts the lines of a wrapper's log.
func logLines(t *testing.T, name string) int {
	t.Helper()
	data, err := os.ReadFile(name)
	if os.IsNotExist(err) {
		return 0
	}
	require.NoError(t, err)
	return strings.Count(string(data), "\n")
}

// open starts the session on the module at root, opens uri with text as
// version 1 and returns its first diagnostics.
func (p *lspProcess) open(t *testing.T, root, uri, text string) []json.RawMessage {
	t.Helper()
	p.call(t, "initialize", map[string]any{"processId": os.Getpid(), "rootUri": fileURI(root), "capabilities": map[string]any{}}, nil)
	p.notify(t, "initialized", map[string]any{})
	p.notify(t, "textDocument/didOpen", map[string]any{
		"textDocument": map[string]any{"uri": uri, "languageId": "go", "version": 1, "text": text},
	})
	p.setSent(uri, 1)
	return p.waitVersion(t, uri, 1)
}

// edit replaces the open buffer of uri by text (didChange, the next
// version) and returns the diagnostics of that version.
func (p *lspProcess) edit(t *testing.T, uri, text string) []json.RawMessage {
	t.Helper()
	p.mu.Lock()
	v := p.sent[uri] + 1
	p.mu.Unlock()
	p.notify(t, "textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": uri, "version": v},
		"contentChanges": []map[string]any{{"text": text}},
	})
	p.setSent(uri, v)
	return p.waitVersion(t, uri, v)
}

func (p *lspProcess) setSent(uri string, v int32) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.sent == nil {
		p.sent = map[string]int32{}
	}
	p.sent[uri] = v
}

// stop shuts the server down and waits for it.
func (p *lspProcess) stop(t *testing.T) {
	t.Helper()
	p.call(t, "shutdown", nil, nil)
	p.notify(t, "exit", nil)
	p.cmd.Wait()
	p.conn.Close()
}

// freshDiagnostics is what a server that loads text afresh (-cache=off, a
// new process) publishes for uri.
func freshDiagnostics(t *testing.T, root, uri, text string) []json.RawMessage {
	t.Helper()
	p := startLSP(t, os.Environ(), "-cache=off")
	defer p.stop(t)
	return p.open(t, root, uri, text)
}

// waitVersion waits for the diagnostics of version v of uri.
func (p *lspProcess) waitVersion(t *testing.T, uri string, v int32) []json.RawMessage {
	t.Helper()
	deadline := time.Now().Add(lspTimeout)
	for time.Now().Before(deadline) {
		p.mu.Lock()
		diags, ok := p.published[uri]
		got := p.versions[uri]
		p.mu.Unlock()
		if ok && got == v {
			return diags
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("no diagnostics of version %d for %s within %v", v, uri, lspTimeout)
	return nil
}

const factsUserTest = `package user_test

import (
	"testing"
	"unsafe"

	"example.com/facts/user"
)

func TestSum(t *testing.T) {
	var a, b [16]float32
	_ = user.Sum(unsafe.Pointer(&a[0]), unsafe.Pointer(&b[0]), 64)
}
`

// TestLSPEditsInMemory: after the server has analyzed user's directory
// once, unsaved edits of user.go run no go command and no C compiler, and
// publish what a server that loads the edited buffer afresh (-cache=off)
// publishes: an edit that makes a finding (through hw's facts), one that
// moves it. An edit that adds an import, and an edit after hw.go changed
// on disk (saved from elsewhere), load the directory again, and are right
// too.
func TestLSPEditsInMemory(t *testing.T) {
	t.Parallel()
	dir, hwFile := factsModule(t)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "user", "user_test.go"), []byte(factsUserTest), 0o644))
	file := filepath.Join(dir, "user", "user.go")
	uri := fileURI(file)
	env, goLog, ccLog := goAndCCWrappers(t)
	env = append(env, "HIPLINT_CACHE="+filepath.Join(t.TempDir(), "cache"))

	// fresh is what a server that loads text afresh publishes. Each such
	// server is a whole load (4-5 s of CPU): the default run
	// (testenv.Sample) compares the first edit analyzed in memory (a
	// finding through hw's facts) and the edit after hw.go changed on disk
	// (a load again, with new facts) with a fresh server; the other edits
	// still check that no go command and no C compiler ran, and what they
	// publish. HIPLINT_LONGTESTS=1 compares every edit.
	sameAsFresh := comparedWithFresh(t, dir, uri, []string{"first edit", "second edit", "a syntax error", "third edit", "an import added", "hw.go changed on disk"},
		"first edit", "hw.go changed on disk")

	p := startLSP(t, env)
	first := p.open(t, dir, uri, factsUser)
	assert.Empty(t, first, "user synchronizes before it reads")
	require.Positive(t, logLines(t, goLog), "the first analysis runs go list")
	require.Positive(t, logLines(t, ccLog), "the first analysis runs cgo on hw")

	edit := func(text string) []json.RawMessage {
		t.Helper()
		return p.edit(t, uri, text)
	}
	inMemory := func(what, text string) []json.RawMessage {
		t.Helper()
		goRuns, ccRuns := logLines(t, goLog), logLines(t, ccLog)
		got := edit(text)
		assert.Equal(t, goRuns, logLines(t, goLog), "%s: no go command runs", what)
		assert.Equal(t, ccRuns, logLines(t, ccLog), "%s: no C compiler runs (no cgo, no header scan)", what)
		sameAsFresh(what, text, got)
		return got
	}

	// The edit drops the synchronization: a finding that rests on hw's
	// facts (CopyD2D copies, Checksum reads on the host).
	unsynced := strings.Replace(factsUser, "\thw.Sync()\n", "", 1)
	got := inMemory("first edit", unsynced)
	require.Len(t, got, 1, "the read before the copy lands")
	moved := strings.Replace(unsynced, "// Sum copies", "\n\n// Sum copies", 1)
	got2 := inMemory("second edit", moved)
	require.Len(t, got2, 1)
	assert.NotEqual(t, got, got2, "the finding moved two lines down")
	// Half-typed: a syntax error in Sum's body. The package is not
	// analyzed (no diagnostics, its error logged), as a load gives it,
	// and the graph stays for the next edit.
	broken := strings.Replace(unsynced, "return hw.Checksum(dst, n/4)", "return hw.Checksum(dst, n/4", 1)
	assert.Empty(t, inMemory("a syntax error", broken))
	back := inMemory("third edit", factsUser)
	assert.Empty(t, back)
	assert.Equal(t, 4, p.stderrCount("edit analyzed in memory", 4), p.stderrText())

	// A new import: go list must say what it is.
	withFmt := strings.Replace(unsynced, "import (\n", "import (\n\t\"fmt\"\n", 1) + "\nfunc init() { fmt.Println() }\n"
	goRuns := logLines(t, goLog)
	got = edit(withFmt)
	assert.Greater(t, logLines(t, goLog), goRuns, "an import added: go list runs")
	sameAsFresh("an import added", withFmt, got)
	assert.Contains(t, p.stderrText(), "its imports changed")

	// hw changes on disk (Sync no longer synchronizes): the graph is out
	// of date, and the next edit of user.go loads again, with the new
	// facts: the read is a finding even after hw.Sync().
	hw, err := os.ReadFile(hwFile)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(hwFile, []byte(strings.Replace(string(hw), "C.hipDeviceSynchronize(); ", "", 1)), 0o644))
	later := time.Now().Add(2 * time.Second) // a modification time the stamps cannot miss
	require.NoError(t, os.Chtimes(hwFile, later, later))
	goRuns = logLines(t, goLog)
	got = edit(factsUser)
	assert.Greater(t, logLines(t, goLog), goRuns, "hw.go changed on disk: go list runs")
	assert.Len(t, got, 1, "hw.Sync no longer synchronizes")
	sameAsFresh("hw.go changed on disk", factsUser, got)

	p.stop(t)
}

// TestLSPEditAfterCacheHit: a server that publishes a directory from the
// result cache (nothing loaded) loads it in the background, and the edit
// that follows is analyzed in memory: no go command, no C compiler, and
// what a fresh server publishes.
func TestLSPEditAfterCacheHit(t *testing.T) {
	t.Parallel()
	dir, _ := factsModule(t)
	file := filepath.Join(dir, "user", "user.go")
	uri := fileURI(file)
	env, goLog, ccLog := goAndCCWrappers(t)
	env = append(env, "HIPLINT_CACHE="+filepath.Join(t.TempDir(), "cache"))
	open := func() *lspProcess {
		t.Helper()
		p := startLSP(t, env)
		p.open(t, dir, uri, factsUser)
		return p
	}
	open().stop(t) // fills the cache

	p := open()
	deadline := time.Now().Add(lspTimeout)
	for !strings.Contains(p.stderrText(), "loaded "+filepath.Dir(file)+" for its edits") && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	require.Contains(t, p.stderrText(), "loaded "+filepath.Dir(file)+" for its edits", "published from the cache, then loaded")
	goRuns, ccRuns := logLines(t, goLog), logLines(t, ccLog)
	unsynced := strings.Replace(factsUser, "\thw.Sync()\n", "", 1)
	got := p.edit(t, uri, unsynced)
	assert.Equal(t, goRuns, logLines(t, goLog), "no go command runs")
	assert.Equal(t, ccRuns, logLines(t, ccLog), "no C compiler runs")
	assert.Len(t, got, 1)
	p.stop(t)

	// A fresh server is a whole load (4-5 s of CPU): TestLSPEditsInMemory
	// compares the same edit of the same file, analyzed in memory after a
	// load, with one in every run; HIPLINT_LONGTESTS=1 compares here too.
	if !testenv.Long(t) {
		t.Log("not compared with a fresh server in the default run")
		return
	}
	assert.Equal(t, freshDiagnostics(t, dir, uri, unsynced), got)
}

// leakyHW is a function of hw that calls the runtime itself and has a
// finding: the read of dst before the copy into it lands.
const leakyHW = `
// Leaky copies, then reads dst on the host.
func Leaky(dst, src unsafe.Pointer) float32 {
	C.hipMemcpy(dst, src, 64, C.hipMemcpyDeviceToDevice)
	return Checksum(dst, 16)
}
`

// staleHW names nothing of C: cgo copies it as it is.
const staleHW = `
// Stale copies through CopyD2D, then reads dst on the host.
func Stale(dst, src unsafe.Pointer) float32 {
	CopyD2D(dst, src, 64)
	return Checksum(dst, 16)
}
`

// TestLSPCgoEditInMemory: an unsaved edit of a cgo file that adds a
// function naming nothing of C is analyzed without cgo (no C compiler, no
// go command): cgo's output is the old one with the function's lines in
// place and the line directives after them moved, so the new finding and
// the finding of Leaky below it (moved down) are where a fresh load puts
// them. An edit that names C runs cgo.
func TestLSPCgoEditInMemory(t *testing.T) {
	t.Parallel()
	dir, hwFile := factsModule(t)
	data, err := os.ReadFile(hwFile)
	require.NoError(t, err)
	hw := string(data) + leakyHW
	require.NoError(t, os.WriteFile(hwFile, []byte(hw), 0o644))
	uri := fileURI(hwFile)
	env, goLog, ccLog := goAndCCWrappers(t)
	env = append(env, "HIPLINT_CACHE="+filepath.Join(t.TempDir(), "cache"))

	// Each fresh server is a whole load: the default run (testenv.Sample)
	// compares the first in-memory edit (the new finding, Leaky's moved)
	// and the edit that runs cgo; the comment line, in memory like the
	// first, is compared under HIPLINT_LONGTESTS=1.
	sameAsFresh := comparedWithFresh(t, dir, uri, []string{"Stale added", "a comment line", "an edit that names C"}, "Stale added", "an edit that names C")

	p := startLSP(t, env)
	first := p.open(t, dir, uri, hw)
	require.Len(t, first, 1, "Leaky's read")
	edit := func(text string) []json.RawMessage {
		t.Helper()
		return p.edit(t, uri, text)
	}

	// Stale goes in before Leaky: two findings, Leaky's further down.
	withStale := strings.Replace(hw, leakyHW, staleHW+leakyHW, 1)
	goRuns, ccRuns := logLines(t, goLog), logLines(t, ccLog)
	got := edit(withStale)
	assert.Equal(t, goRuns, logLines(t, goLog), "no go command runs")
	assert.Equal(t, ccRuns, logLines(t, ccLog), "no cgo runs")
	assert.Len(t, got, 2)
	sameAsFresh("Stale added", withStale, got)
	assert.NotContains(t, got, first[0], "Leaky's finding moved")

	// A comment line added inside Checksum, above both.
	commented := strings.Replace(withStale, "\tfor _, v := range", "\t// sum on the host\n\tfor _, v := range", 1)
	got = edit(commented)
	assert.Equal(t, goRuns, logLines(t, goLog), "no go command runs")
	assert.Equal(t, ccRuns, logLines(t, ccLog), "no cgo runs")
	sameAsFresh("a comment line", commented, got)
	assert.Equal(t, 2, p.stderrCount("edit analyzed in memory", 2), p.stderrText())

	// An edit that names C: cgo must run.
	namesC := strings.Replace(commented, "\tCopyD2D(dst, src, 64)\n", "\tC.hipDeviceSynchronize()\n\tCopyD2D(dst, src, 64)\n", 1)
	got = edit(namesC)
	assert.Greater(t, logLines(t, ccLog), ccRuns, "cgo runs")
	assert.Contains(t, p.stderrText(), "the edit uses C")
	sameAsFresh("an edit that names C", namesC, got)

	p.stop(t)
}

// comparedWithFresh returns the check that an edit's diagnostics (got, for
// the buffer text) are what a fresh server publishes for the same text:
// for every edit of all under HIPLINT_LONGTESTS=1, for those of keep in the
// default run (testenv.SampleStrings; each fresh server is a whole load),
// the others logged as not compared.
func comparedWithFresh(t *testing.T, dir, uri string, all []string, keep ...string) func(what, text string, got []json.RawMessage) {
	compared := map[string]bool{}
	for _, what := range testenv.SampleStrings(t, all, keep...) {
		compared[what] = true
	}
	return func(what, text string, got []json.RawMessage) {
		t.Helper()
		if !compared[what] {
			t.Logf("%s: not compared with a fresh server in the default run", what)
			return
		}
		assert.Equal(t, freshDiagnostics(t, dir, uri, text), got, "%s: what a fresh load publishes", what)
	}
}
