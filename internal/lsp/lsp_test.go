package lsp

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hiplint/hiplint/internal/driver"
	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
)

// TestDiagnosticsAndQuickFix opens a copy of examples/kernelcache and of the
// -fix fixture: the server publishes the marked finding with its check ID,
// documentation link, severity and related position, and offers the fix
// whose edit, applied, gives exactly what hiplint -fix writes
// (cmd/hiplint/testdata/fix/leak.go.golden). The files on disk stay as
// they were.
func TestDiagnosticsAndQuickFix(t *testing.T) {
	dir := tempModule(t)
	c := start(t)

	kernelcache := filepath.Join(dir, "examples", "kernelcache", "kernelcache.go")
	uri := c.open(kernelcache)
	diags := c.waitPublished(uri, 1)
	require.Len(t, diags, 1, "examples/kernelcache marks one hazard")
	d := diags[0]
	assert.Equal(t, "HL2001", d.Code)
	assert.Equal(t, "hiplint", d.Source)
	assert.Equal(t, severityError, d.Severity)
	require.NotNil(t, d.CodeDescription)
	assert.Equal(t, "https://github.com/hiplint/hiplint/blob/main/docs/checks/HL2001.md", d.CodeDescription.Href)
	assert.Equal(t, hazardLines(t, kernelcache), []int{d.Range.Start.Line + 1}, "the line marked // hazard: HL2001")
	line := strings.Split(readFile(t, kernelcache), "\n")[d.Range.Start.Line]
	assert.Equal(t, "C.hipModuleLoad(&m, cpath)", line[d.Range.Start.Character:d.Range.End.Character],
		"the range is the user's call, though cgo rewrote it (column 18, as hiplint prints it)")
	assert.Contains(t, d.Message, "not unloaded on this return")
	require.Len(t, d.RelatedInformation, 1)
	assert.Equal(t, uri, d.RelatedInformation[0].Location.URI)
	assert.Equal(t, 44, d.RelatedInformation[0].Location.Range.Start.Line, "the leaking return, kernelcache.go:45")
	assert.Empty(t, c.codeActions(uri, d.Range, d), "HL2001 in kernelcache has no mechanical fix")

	leak := filepath.Join(dir, "leak", "leak.go")
	before := readFile(t, leak)
	leakURI := c.open(leak)
	diags = c.waitPublished(leakURI, 1)
	require.Len(t, diags, 1)
	assert.Equal(t, "HL2001", diags[0].Code)
	actions := c.codeActions(leakURI, lspRange{diags[0].Range.Start, diags[0].Range.Start})
	require.Len(t, actions, 1)
	a := actions[0]
	assert.Equal(t, codeActionQuickFix, a.Kind)
	assert.True(t, a.IsPreferred)
	assert.Equal(t, diags, a.Diagnostics)
	require.NotNil(t, a.Edit)
	require.Contains(t, a.Edit.Changes, leakURI)
	assert.Len(t, a.Edit.Changes, 1, "the fix edits leak.go only")
	golden := readFile(t, filepath.Join(repoRoot, "cmd", "hiplint", "testdata", "fix", "leak.go.golden"))
	assert.Equal(t, golden, applyEdits(t, before, a.Edit.Changes[leakURI]), "the quick fix makes what -fix makes")
	assert.Equal(t, before, readFile(t, leak), "the server wrote nothing")

	c.mu.Lock()
	assert.Empty(t, c.unsupported)
	c.mu.Unlock()
}

// hazardLines returns the lines (1-based) marked `// hazard:` in file.
func hazardLines(t *testing.T, file string) []int {
	var lines []int
	for i, line := range strings.Split(readFile(t, file), "\n") {
		if strings.Contains(line, "// hazard: ") {
			lines = append(lines, i+1)
		}
	}
	return lines
}

// insertLines is a didChange that inserts text before line (0-based) of
// the buffer, as an editor sends it with incremental sync.
func insertLines(uri string, version int32, line int, text string) didChangeParams {
	at := position{Line: line}
	return didChangeParams{
		TextDocument:   versionedTextDocumentIdentifier{URI: uri, Version: version},
		ContentChanges: []textDocumentContentChangeEvent{{Range: &lspRange{at, at}, Text: text}},
	}
}

// TestUnsavedEditsMoveDiagnostics: edits of a buffer are analyzed unsaved,
// once per pause in typing: lines inserted above the finding move its
// diagnostic down by as many lines, and the quick fix is offered for the
// edited buffer and makes what -fix makes of it. Saves coalesce into one
// analysis; closing clears the diagnostics, and a reopen of the saved file
// is served from the cache. The server writes no file.
func TestUnsavedEditsMoveDiagnostics(t *testing.T) {
	dir := tempModule(t)
	c := start(t, func(o *Options) { o.Debounce = 300 * time.Millisecond; o.ChangeDebounce = time.Second })
	leak := filepath.Join(dir, "leak", "leak.go")
	before := readFile(t, leak)
	uri := c.open(leak)
	diags := c.waitPublished(uri, 1)
	require.Len(t, diags, 1)
	require.Len(t, c.analyses(), 1)
	require.Len(t, c.codeActions(uri, diags[0].Range), 1)

	// Four keystrokes' worth of edits, each a line inserted at the top.
	buffer := before
	for v := int32(2); v <= 5; v++ {
		line := fmt.Sprintf("// edit %d\n", v)
		c.notify(methodDidChange, insertLines(uri, v, 0, line))
		buffer = line + buffer
	}
	assert.Empty(t, c.codeActions(uri, diags[0].Range), "no fix for a buffer edited since the analysis")
	moved := c.waitPublished(uri, 2)
	require.Len(t, moved, 1, "the edited buffer still leaks the module")
	assert.Equal(t, diags[0].Range.Start.Line+4, moved[0].Range.Start.Line, "four lines inserted above the finding")
	assert.Equal(t, diags[0].Range.Start.Character, moved[0].Range.Start.Character)
	assert.Equal(t, diags[0].Message, moved[0].Message)
	assert.Len(t, c.analyses(), 2, "four edits in a row, one analysis")
	assert.Equal(t, before, readFile(t, leak), "the server wrote nothing")

	actions := c.codeActions(uri, moved[0].Range)
	require.Len(t, actions, 1, "the fix of the edited buffer")
	golden := readFile(t, filepath.Join(repoRoot, "cmd", "hiplint", "testdata", "fix", "leak.go.golden"))
	assert.Equal(t, buffer[:len(buffer)-len(before)]+golden, applyEdits(t, buffer, actions[0].Edit.Changes[uri]),
		"the quick fix, applied to the buffer, makes what -fix makes of it")

	// The editor writes the buffer, then says so, five times in a row.
	write(t, leak, buffer)
	for range 5 {
		c.notify(methodDidSave, didSaveParams{TextDocument: textDocumentIdentifier{URI: uri}})
		time.Sleep(20 * time.Millisecond)
	}
	assert.Equal(t, moved, c.waitPublished(uri, 3), "saved as analyzed: the same findings")
	time.Sleep(time.Second)
	assert.Len(t, c.analyses(), 3, "five saves in a row, one analysis")
	assert.Equal(t, 3, c.publications(uri))
	assert.Len(t, c.codeActions(uri, moved[0].Range), 1, "saved: the buffer is what was analyzed")

	c.notify(methodDidClose, didCloseParams{TextDocument: textDocumentIdentifier{URI: uri}})
	assert.Empty(t, c.waitPublished(uri, 4), "closing clears the file's diagnostics")
	c.open(leak)
	assert.Equal(t, moved, c.waitPublished(uri, 5), "reopened: the cached findings again")
	assert.Len(t, c.analyses(), 3, "a reopen of an analyzed, unchanged package loads nothing")
}

// TestClosingAnEditedBufferRestoresTheFile: an unsaved edit that suppresses
// the finding clears it; once the buffer is closed without saving, the file
// on disk is the package again, and reopening it shows the finding.
func TestClosingAnEditedBufferRestoresTheFile(t *testing.T) {
	dir := tempModule(t)
	c := start(t, func(o *Options) { o.ChangeDebounce = 50 * time.Millisecond })
	file := filepath.Join(dir, "examples", "kernelcache", "kernelcache.go")
	uri := c.open(file)
	diags := c.waitPublished(uri, 1)
	require.Len(t, diags, 1)

	c.notify(methodDidChange, insertLines(uri, 2, diags[0].Range.Start.Line, "\t//hiplint:ignore HL2001 the cache lives as long as the process\n"))
	assert.Empty(t, c.waitPublished(uri, 2), "the unsaved directive suppresses the finding")

	n := len(c.analyses())
	c.notify(methodDidClose, didCloseParams{TextDocument: textDocumentIdentifier{URI: uri}})
	assert.Empty(t, c.waitPublished(uri, 3), "closing clears the file's diagnostics")
	c.open(file)
	assert.Equal(t, diags, c.waitPublished(uri, 4), "the file as it is on disk, finding and all")
	assert.Greater(t, len(c.analyses()), n, "analyzed afresh: the cached findings were the buffer's")
}

// TestApplyChanges: incremental changes are placed by UTF-16 positions,
// clamped to the buffer, and a change without a range replaces it all.
func TestApplyChanges(t *testing.T) {
	rng := func(l1, c1, l2, c2 int) *lspRange { return &lspRange{position{l1, c1}, position{l2, c2}} }
	for _, tc := range []struct {
		name, text string
		changes    []textDocumentContentChangeEvent
		want       string
	}{
		{"insert", "ab\ncd\n", []textDocumentContentChangeEvent{{Range: rng(1, 1, 1, 1), Text: "X"}}, "ab\ncXd\n"},
		{"delete across lines", "ab\ncd\n", []textDocumentContentChangeEvent{{Range: rng(0, 1, 1, 1), Text: ""}}, "ad\n"},
		{"after a surrogate pair", "😀x\n", []textDocumentContentChangeEvent{{Range: rng(0, 2, 0, 3), Text: "y"}}, "😀y\n"},
		{"after a two-byte rune", "éx\n", []textDocumentContentChangeEvent{{Range: rng(0, 1, 0, 2), Text: "y"}}, "éy\n"},
		{"past the end of a line", "ab\ncd", []textDocumentContentChangeEvent{{Range: rng(0, 9, 0, 9), Text: "!"}}, "ab!\ncd"},
		{"past the last line", "ab", []textDocumentContentChangeEvent{{Range: rng(5, 0, 5, 0), Text: "!"}}, "ab!"},
		{"whole buffer, then a range", "old", []textDocumentContentChangeEvent{{Text: "new\n"}, {Range: rng(1, 0, 1, 0), Text: "x"}}, "new\nx"},
	} {
		assert.Equal(t, tc.want, string(applyChanges([]byte(tc.text), tc.changes)), tc.name)
	}
}

// TestSaveReanalyzesOpenDependents: saving a package re-analyzes the open
// packages that import it, since facts flow from it into their findings.
func TestSaveReanalyzesOpenDependents(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "go.mod"), "module example.com/deps\n\ngo 1.26\n")
	write(t, filepath.Join(dir, "base", "base.go"), "package base\n\nfunc F() int { return 1 }\n")
	write(t, filepath.Join(dir, "user", "user.go"), "package user\n\nimport \"example.com/deps/base\"\n\nvar X = base.F()\n")
	write(t, filepath.Join(dir, "other", "other.go"), "package other\n\nvar Y = 2\n")
	c := start(t)

	var uris []string
	for _, p := range []string{"base/base.go", "user/user.go", "other/other.go"} {
		uri := c.open(filepath.Join(dir, p))
		assert.Empty(t, c.waitPublished(uri, 1))
		uris = append(uris, uri)
	}
	require.Len(t, c.analyses(), 3)

	c.notify(methodDidSave, didSaveParams{TextDocument: textDocumentIdentifier{URI: uris[0]}})
	c.waitPublished(uris[0], 2)
	c.waitPublished(uris[1], 2)
	time.Sleep(500 * time.Millisecond)
	assert.Equal(t, []string{filepath.Join(dir, "base"), filepath.Join(dir, "user")}, c.analyses()[3:],
		"the saved package, then its dependent; not the unrelated one")
}

// TestBadInputKeepsServing: a package that does not type-check and one
// whose cgo preamble fails give no diagnostics and a logged message each;
// the server goes on serving.
func TestBadInputKeepsServing(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "go.mod"), "module example.com/bad\n\ngo 1.26\n")
	write(t, filepath.Join(dir, "typeerr", "typeerr.go"), "package typeerr\n\nvar X int = \"not an int\"\n")
	write(t, filepath.Join(dir, "cgoerr", "cgoerr.go"), "package cgoerr\n\n// #include <no/such/header.h>\nimport \"C\"\n\nvar X = C.nothing\n")
	write(t, filepath.Join(dir, "syntax", "syntax.go"), "package syntax\n\nfunc {\n")
	c := start(t)

	for _, p := range []string{"typeerr/typeerr.go", "cgoerr/cgoerr.go", "syntax/syntax.go"} {
		uri := c.open(filepath.Join(dir, p))
		assert.Empty(t, c.waitPublished(uri, 1), p)
		assert.Empty(t, c.codeActions(uri, lspRange{}), p)
	}
	all := c.waitLogged("example.com/bad/typeerr", "no/such/header.h", "example.com/bad/syntax")
	assert.Contains(t, all, "example.com/bad/typeerr")
	assert.Contains(t, all, "no/such/header.h")
	assert.Contains(t, all, "example.com/bad/syntax")
}

// TestDirectives: the server applies the suppression directives as the
// command line does, and reports the directives that suppress nothing
// (HL0001) or are malformed (HL0002).
func TestDirectives(t *testing.T) {
	dir := tempModule(t)
	src := strings.Split(readFile(t, filepath.Join(dir, "examples", "kernelcache", "kernelcache.go")), "\n")
	var out []string
	for _, line := range src {
		if strings.Contains(line, "// hazard: HL2001") {
			indent := line[:len(line)-len(strings.TrimLeft(line, "\t"))]
			out = append(out, indent+"//hiplint:ignore HL2001 the cache lives as long as the process")
		}
		out = append(out, line)
	}
	out = append(out,
		"//hiplint:ignore HL1001 there is no copy here",
		"var unused = 0",
		"",
		"//hiplint:ignore",
		"var malformed = 0",
		"")
	// The preamble finds the headers at ../../testdata/include, as in examples/.
	file := filepath.Join(dir, "examples", "suppressed", "kernelcache.go")
	write(t, file, strings.Join(out, "\n"))
	require.NoError(t, os.Remove(filepath.Join(dir, "examples", "kernelcache", "kernelcache.go")))

	c := start(t)
	uri := c.open(file)
	diags := c.waitPublished(uri, 1)
	var codes []string
	lines := map[string]int{}
	for _, d := range diags {
		codes = append(codes, d.Code)
		lines[d.Code] = d.Range.Start.Line
	}
	assert.ElementsMatch(t, []string{"HL0001", "HL0002"}, codes, "HL2001 suppressed; the unused and the malformed directive reported")
	text := strings.Split(readFile(t, file), "\n")
	assert.Contains(t, text[lines["HL0001"]], "//hiplint:ignore HL1001")
	assert.Equal(t, "//hiplint:ignore", text[lines["HL0002"]])
}

// tier3Src stops cgo at an #error, which stands for a failure hiplint
// cannot repair (a missing SDK header it stubs, internal/synth): cgo fails,
// and the package is analyzed from its Go files (tier 3), the runtime calls
// recognized by name.
const tier3Src = `package sdk

// #error no_such_sdk_header.h cannot be repaired
import "C"

import (
	"errors"
	"unsafe"
)

// Load leaks the module it loads.
func Load(image unsafe.Pointer) error {
	var m C.hipModule_t
	if C.hipModuleLoadData(&m, image) != C.hipSuccess { // hazard: HL2001
		return errors.New("load failed")
	}
	return nil
}
`

// TestTier3: the server loads through internal/driver as the command line
// does, so a package whose cgo preamble includes a header that does not
// exist is analyzed at tier 3: its finding is published and the note says
// why; with NoTier3 (-headers=system) the cgo failure is a problem and
// nothing is published.
func TestTier3(t *testing.T) {
	for _, noTier3 := range []bool{false, true} {
		t.Run(fmt.Sprintf("NoTier3=%v", noTier3), func(t *testing.T) {
			dir := t.TempDir()
			write(t, filepath.Join(dir, "go.mod"), "module example.com/tier3\n\ngo 1.26\n")
			file := filepath.Join(dir, "sdk", "sdk.go")
			write(t, file, tier3Src)
			c := start(t, func(o *Options) { o.NoTier3 = noTier3 })

			uri := c.open(file)
			diags := c.waitPublished(uri, 1)
			want := []string{"no_such_sdk_header.h"}
			if !noTier3 {
				want = append(want, "example.com/tier3/sdk: note: cgo failed")
			}
			all := c.waitLogged(want...)
			assert.Contains(t, all, "no_such_sdk_header.h")
			if noTier3 {
				assert.Empty(t, diags, "a cgo failure is an error")
				assert.NotContains(t, all, "note: cgo failed")
				return
			}
			require.Len(t, diags, 1)
			assert.Equal(t, "HL2001", diags[0].Code)
			assert.Equal(t, hazardLines(t, file), []int{diags[0].Range.Start.Line + 1})
			assert.Contains(t, all, "example.com/tier3/sdk: note: cgo failed")
		})
	}
}

// TestCgoEditInMemory: a function that names nothing of C, typed into a
// cgo file above a finding, is analyzed from the loaded graph (cgo's
// output rewritten without cgo: RerunStats is told, once): the finding
// moves down, and its quick fix, applied to the buffer, still makes what
// -fix makes of it.
func TestCgoEditInMemory(t *testing.T) {
	dir := tempModule(t)
	var mu sync.Mutex
	var reruns []driver.RerunStats
	c := start(t, func(o *Options) {
		o.ChangeDebounce = 300 * time.Millisecond
		o.RerunStats = func(_ string, st driver.RerunStats) {
			mu.Lock()
			defer mu.Unlock()
			reruns = append(reruns, st)
		}
	})
	leak := filepath.Join(dir, "leak", "leak.go")
	before := readFile(t, leak)
	uri := c.open(leak)
	diags := c.waitPublished(uri, 1)
	require.Len(t, diags, 1)

	at := slices.Index(strings.Split(before, "\n"), "// Launch loads image and launches its kernel name once.")
	require.Positive(t, at)
	added := "// Twice doubles n.\nfunc Twice(n int) int { return 2 * n }\n\n"
	c.notify(methodDidChange, insertLines(uri, 2, at, added))
	buffer := strings.Replace(before, "// Launch loads", added+"// Launch loads", 1)
	moved := c.waitPublished(uri, 2)
	require.Len(t, moved, 1)
	assert.Equal(t, diags[0].Range.Start.Line+3, moved[0].Range.Start.Line, "three lines inserted above the finding")
	assert.Equal(t, diags[0].Range.Start.Character, moved[0].Range.Start.Character)
	mu.Lock()
	assert.Len(t, reruns, 1, "analyzed in memory, not loaded")
	mu.Unlock()

	actions := c.codeActions(uri, moved[0].Range)
	require.Len(t, actions, 1, "the fix of the edited buffer")
	golden := readFile(t, filepath.Join(repoRoot, "cmd", "hiplint", "testdata", "fix", "leak.go.golden"))
	assert.Equal(t, strings.Replace(golden, "// Launch loads", added+"// Launch loads", 1), applyEdits(t, buffer, actions[0].Edit.Changes[uri]),
		"the quick fix, applied to the buffer, makes what -fix makes of it")
}
