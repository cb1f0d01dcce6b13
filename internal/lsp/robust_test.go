package lsp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hiplint/hiplint/analyzers"
	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
	"github.com/sourcegraph/jsonrpc2"
	"golang.org/x/tools/go/analysis"
)

// A gate is an analyzer whose first run holds its analysis until the test
// opens the gate: an analysis in progress for exactly as long as a test
// needs it, as an analyzer that does not end on some package would hold
// it, with no sleeping involved.
type gate struct {
	started chan struct{} // closed when the first run begins
	release chan struct{} // closed by open
	first   sync.Once
	opened  sync.Once
}

// newGate returns a closed gate that the test's cleanup opens.
func newGate(t *testing.T) *gate {
	g := &gate{started: make(chan struct{}), release: make(chan struct{})}
	t.Cleanup(g.open)
	return g
}

func (g *gate) open() { g.opened.Do(func() { close(g.release) }) }

func (g *gate) analyzer() *analysis.Analyzer {
	return &analysis.Analyzer{
		Name: "gate",
		Doc:  "test analyzer: its first run waits until the test opens the gate",
		Run: func(*analysis.Pass) (any, error) {
			first := false
			g.first.Do(func() { first = true; close(g.started) })
			if first {
				<-g.release
			}
			return nil, nil
		},
	}
}

// waitStarted waits until an analysis is held at the gate.
func (g *gate) waitStarted(t *testing.T) {
	t.Helper()
	select {
	case <-g.started:
	case <-time.After(waitFor):
		t.Fatalf("no analysis reached the gate within %v", waitFor)
	}
}

// plainModule returns a module with one package without cgo, which loads
// in a moment.
func plainModule(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	write(t, filepath.Join(dir, "go.mod"), "module example.com/plain\n\ngo 1.26\n")
	write(t, filepath.Join(dir, "a", "a.go"), "package a\n\nfunc F() int { return 1 }\n")
	return dir
}

// TestExitDuringAnalysis: the server answers shutdown and exits within a
// second of exit while an analyzer is still running on a package (held at
// the gate, as one that never ends would hold it), with the status of an
// orderly exit, and says in its log that it did not wait.
func TestExitDuringAnalysis(t *testing.T) {
	dir := plainModule(t)
	var log lockedBuffer
	g := newGate(t)
	c := start(t, func(o *Options) {
		o.Analyzers = []*analysis.Analyzer{g.analyzer()}
		o.Log = &log
	})
	c.open(filepath.Join(dir, "a", "a.go"))
	g.waitStarted(t)

	c.call(methodShutdown, nil, nil)
	c.mu.Lock()
	c.exited = true
	c.mu.Unlock()
	begin := time.Now()
	c.notify(methodExit, nil)
	select {
	case err := <-c.done:
		assert.NoError(t, err, "shutdown, then exit: an orderly exit")
		assert.Less(t, time.Since(begin), time.Second, "exited within a second of exit")
	case <-time.After(10 * time.Second):
		t.Fatal("the server did not exit within 10 s of exit while an analyzer was running")
	}
	assert.Contains(t, log.String(), "exiting without waiting for the analysis of "+filepath.Join(dir, "a"))
}

// TestExitWithoutShutdown: exit that no shutdown preceded ends the server
// with an error (the command exits with status 1, as the protocol asks).
func TestExitWithoutShutdown(t *testing.T) {
	c := start(t)
	c.mu.Lock()
	c.exited = true
	c.mu.Unlock()
	c.notify(methodExit, nil)
	select {
	case err := <-c.done:
		assert.EqualError(t, err, "the client sent exit without shutdown")
	case <-time.After(10 * time.Second):
		t.Fatal("the server did not exit")
	}
}

// lockedBuffer is a log that tests read while the server writes it.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// rawClient writes bytes to the server as they are, to send what no
// well-behaved client sends, and reads what the server answers.
type rawClient struct {
	t    *testing.T
	conn io.ReadWriteCloser
	log  *lockedBuffer
	msgs chan map[string]json.RawMessage // the server's messages but its log messages
	done chan error                      // serve's result
}

func startRaw(t *testing.T) *rawClient {
	t.Helper()
	serverEnd, clientEnd := pipe()
	c := &rawClient{t: t, conn: clientEnd, log: &lockedBuffer{}, msgs: make(chan map[string]json.RawMessage, 100), done: make(chan error, 1)}
	srv := newServer(Options{Log: c.log, Debounce: 50 * time.Millisecond})
	go func() { c.done <- srv.serve(context.Background(), serverEnd) }()
	go func() {
		defer close(c.msgs)
		r := bufio.NewReader(clientEnd)
		for {
			var m map[string]json.RawMessage
			if err := (jsonrpc2.VSCodeObjectCodec{}).ReadObject(r, &m); err != nil {
				return
			}
			if string(m["method"]) == `"`+methodLogMessage+`"` {
				continue
			}
			c.msgs <- m
		}
	}()
	t.Cleanup(func() {
		clientEnd.Close()
		t.Logf("server log:\n%s", c.log.String())
	})
	return c
}

// frame is body with the header part the protocol wants.
func frame(body string) string {
	return fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body)
}

func (c *rawClient) send(raw string) {
	c.t.Helper()
	_, err := c.conn.Write([]byte(raw))
	require.NoError(c.t, err, "writing to the server")
}

// next returns the server's next message.
func (c *rawClient) next() map[string]json.RawMessage {
	c.t.Helper()
	select {
	case m, ok := <-c.msgs:
		require.True(c.t, ok, "the server closed the connection")
		return m
	case <-time.After(waitFor):
		c.t.Fatalf("no message from the server within %v", waitFor)
		return nil
	}
}

// wantError checks that m is an error response with id and code, and
// returns its message.
func wantError(t *testing.T, m map[string]json.RawMessage, id string, code int) string {
	t.Helper()
	assert.JSONEq(t, id, string(m["id"]), "the id of the error reply")
	var e jsonrpc2.Error
	require.NoError(t, json.Unmarshal(m["error"], &e), "an error reply: %s", m)
	assert.Equal(t, int64(code), e.Code)
	return e.Message
}

// TestMalformedMessages: a body that is not JSON gets a parse error
// (-32700, id null); JSON that is no JSON-RPC message, or a message whose
// header part has a line that is no header, an invalid request error
// (-32600, with the request's id where it has one); the log says which
// message was malformed and how; and the server goes on answering, through
// shutdown and exit.
func TestMalformedMessages(t *testing.T) {
	c := startRaw(t)
	c.send(frame(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}`))
	init := c.next()
	assert.JSONEq(t, "1", string(init["id"]))
	assert.Contains(t, init, "result")
	c.send(frame(`{"jsonrpc":"2.0","method":"initialized","params":{}}`))

	const notJSON = `{"jsonrpc":"2.0","id":2,"method":`
	c.send(frame(notJSON))
	msg := wantError(t, c.next(), "null", codeParseError)
	assert.Contains(t, msg, "not valid JSON")

	c.send(frame(`{"jsonrpc":"2.0","id":3,"params":{}}`))
	wantError(t, c.next(), "3", codeInvalidRequest)

	c.send(frame(`[]`))
	wantError(t, c.next(), "null", codeInvalidRequest)

	codeAction := `{"jsonrpc":"2.0","id":%d,"method":"textDocument/codeAction","params":{"textDocument":{"uri":"file:///nowhere/a.go"},"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":0}},"context":{"diagnostics":[]}}}`
	body := fmt.Sprintf(codeAction, 4)
	c.send(fmt.Sprintf("Content-Length: %d\r\nthis is no header\r\n\r\n%s", len(body), body))
	msg = wantError(t, c.next(), "4", codeInvalidRequest)
	assert.Contains(t, msg, "this is no header")

	c.send(frame(fmt.Sprintf(codeAction, 5)))
	ok := c.next()
	assert.JSONEq(t, "5", string(ok["id"]), "the server still answers")
	assert.JSONEq(t, "[]", string(ok["result"]))

	c.send(frame(`{"jsonrpc":"2.0","id":6,"method":"shutdown"}`))
	assert.JSONEq(t, "6", string(c.next()["id"]))
	c.send(frame(`{"jsonrpc":"2.0","method":"exit"}`))
	select {
	case err := <-c.done:
		assert.NoError(t, err, "an orderly exit after the malformed messages")
	case <-time.After(10 * time.Second):
		t.Fatal("the server did not exit")
	}
	log := c.log.String()
	assert.Contains(t, log, fmt.Sprintf("message 3 (%d bytes) is malformed: its body is not valid JSON", len(notJSON)))
	assert.Contains(t, log, "message 4 is malformed: its body is JSON but not a JSON-RPC request, notification or response")
	assert.Contains(t, log, "message 5 is malformed: its body is JSON but not a JSON-RPC request")
	assert.Contains(t, log, "message 6 is malformed: its header has a line that is not \"Name: value\"")
	assert.NotContains(t, log, "closed the connection")
	assert.NotContains(t, log, "protocol error")
}

// TestBrokenFraming: when a message's header part gives no usable
// Content-Length (none, not a number, over the limit, or no header part at
// all), the stream cannot be split into messages any more: the server
// replies with an invalid request error saying so and ends with a
// FramingError at once, without waiting for bytes that may never come.
func TestBrokenFraming(t *testing.T) {
	for name, raw := range map[string]string{
		"not a number":     "Content-Length: twelve\r\n\r\n{}",
		"negative":         "Content-Length: -5\r\n\r\n{}",
		"over the limit":   fmt.Sprintf("Content-Length: %d\r\n\r\n{}", MaxMessageSize+1),
		"missing":          "Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n{}",
		"no header part":   `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`,
		"two lengths":      "Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}",
		"endless header":   "X-Padding: " + strings.Repeat("x", 5000) + "\r\n\r\n",
		"too many headers": strings.Repeat("X-Padding: x\r\n", 40),
	} {
		t.Run(name, func(t *testing.T) {
			c := startRaw(t)
			go c.conn.Write([]byte(raw)) // the server may stop reading before the end
			msg := wantError(t, c.next(), "null", codeInvalidRequest)
			assert.Contains(t, msg, "the message stream is broken at message 1")
			select {
			case err := <-c.done:
				var fe *FramingError
				require.True(t, errors.As(err, &fe), "a FramingError: %v", err)
				assert.Equal(t, 1, fe.Message)
			case <-time.After(10 * time.Second):
				t.Fatal("the server did not end")
			}
		})
	}
}

// TestDiagnosticsCarryTheirVersion: each publication names the version of
// the buffer its diagnostics were computed for, and an analysis of version
// 1 that ends after the edit to version 2 publishes nothing: the first
// publication is version 2's, with the finding on its moved line.
func TestDiagnosticsCarryTheirVersion(t *testing.T) {
	dir := tempModule(t)
	g := newGate(t)
	c := start(t, func(o *Options) {
		o.Analyzers = append(analyzers.Suite(), g.analyzer())
		o.ChangeDebounce = 50 * time.Millisecond
	})
	leak := filepath.Join(dir, "leak", "leak.go")
	load := -1
	for i, line := range strings.Split(readFile(t, leak), "\n") {
		if strings.Contains(line, "C.hipModuleLoadData") {
			load = i
		}
	}
	require.GreaterOrEqual(t, load, 0)

	uri := c.open(leak)
	g.waitStarted(t) // version 1 is being analyzed
	c.notify(methodDidChange, insertLines(uri, 2, 0, "// one\n// two\n"))
	g.open()

	p := c.waitPublication(uri, 1)
	require.NotNil(t, p.Version, "the publication names its version")
	assert.Equal(t, int32(2), *p.Version, "version 1's findings, computed after the edit, were not published")
	require.Len(t, p.Diagnostics, 1)
	assert.Equal(t, load+2, p.Diagnostics[0].Range.Start.Line, "the finding on its line in version 2")
	assert.Len(t, c.analyses(), 2, "version 1, then version 2")

	c.notify(methodDidChange, insertLines(uri, 3, 0, "// three\n"))
	p = c.waitPublication(uri, 2)
	require.NotNil(t, p.Version)
	assert.Equal(t, int32(3), *p.Version)
	require.Len(t, p.Diagnostics, 1)
	assert.Equal(t, load+3, p.Diagnostics[0].Range.Start.Line)
}

// TestLargeFileNoFixesNote: a file larger than the limit for quick fixes
// gets its diagnostics without quick fixes, each with a related note
// saying why, and the editor is told once per opened document
// (window/showMessage); a small copy of the same code gets its fix and no
// note.
func TestLargeFileNoFixesNote(t *testing.T) {
	dir := tempModule(t)
	const limit = 4096
	c := start(t, func(o *Options) { o.MaxFixFileSize = limit })

	small := filepath.Join(dir, "leak", "leak.go")
	smallURI := c.open(small)
	diags := c.waitPublished(smallURI, 1)
	require.Len(t, diags, 1)
	related := diags[0].RelatedInformation
	require.Len(t, related, 1, "where it leaks, no note")
	assert.Len(t, c.codeActions(smallURI, diags[0].Range), 1, "a small file gets its fix")

	large := filepath.Join(dir, "large", "leak.go")
	write(t, large, readFile(t, small)+"\n// "+strings.Repeat("padding ", limit/8)+"\n")
	require.NoError(t, os.Symlink(filepath.Join(dir, "leak", "include"), filepath.Join(dir, "large", "include")))
	largeURI := c.open(large)
	diags = c.waitPublished(largeURI, 1)
	require.Len(t, diags, 1, "the large file gets its diagnostics")
	assert.Empty(t, c.codeActions(largeURI, diags[0].Range), "but no quick fix")
	require.Len(t, diags[0].RelatedInformation, 2, "where it leaks, and the note")
	assert.Equal(t, related[0].Message, diags[0].RelatedInformation[0].Message)
	note := diags[0].RelatedInformation[1]
	assert.Equal(t, largeURI, note.Location.URI)
	assert.Equal(t, diags[0].Range, note.Location.Range, "at the finding")
	assert.Equal(t, "no quick fix: the file is larger than 4096 bytes, the largest for which hiplint offers fixes", note.Message)

	c.notify(methodDidSave, didSaveParams{TextDocument: textDocumentIdentifier{URI: largeURI}})
	c.waitPublished(largeURI, 2)
	c.mu.Lock()
	shown := c.shown
	c.mu.Unlock()
	require.Len(t, shown, 1, "told once for the document, not at each analysis")
	assert.Equal(t, messageInfo, shown[0].Type)
	assert.Equal(t, "hiplint: "+large+": 1 finding comes without quick fixes: the file is larger than 4096 bytes, the largest for which hiplint offers fixes (docs/editors.md, \"Limits\")", shown[0].Message)
}

// TestMissingHeadersNoteOnlyWhenIncluded: of the GPU headers the C
// compiler lacks, the server names those that analyzed code includes, once
// they are: nothing for a package without cgo, the HIP header for a HIP
// package, and never a CUDA header that no code includes.
func TestMissingHeadersNoteOnlyWhenIncluded(t *testing.T) {
	dir := tempModule(t)
	write(t, filepath.Join(dir, "plain", "plain.go"), "package plain\n\nvar X = 1\n")
	c := start(t, func(o *Options) {
		o.MissingHeaders = []string{"hip/hip_runtime.h", "hip/hip_runtime_api.h", "cuda.h", "cuda_runtime.h", "cuda_runtime_api.h"}
	})
	c.waitPublished(c.open(filepath.Join(dir, "plain", "plain.go")), 1)
	c.waitPublished(c.open(filepath.Join(dir, "leak", "leak.go")), 1)
	all := c.waitLogged("finds no")
	assert.Equal(t, 1, strings.Count(all, "finds no"), "one note:\n%s", all)
	assert.Contains(t, all, "hiplint: the C compiler finds no <hip/hip_runtime_api.h>; cgo uses hiplint's declarations of the runtime API instead (-headers=system turns this off)")
	assert.NotContains(t, all, "cuda")
}

// TestSyntaxErrorLoggedPlainly: a one-character syntax error in a cgo file
// is logged as the syntax error, without the count of the errors that
// follow from it and without a note that the package was analyzed at tier
// 3 (it was not analyzed at all).
func TestSyntaxErrorLoggedPlainly(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "go.mod"), "module example.com/syntax\n\ngo 1.26\n")
	file := filepath.Join(dir, "sdk", "sdk.go")
	write(t, file, strings.Replace(tier3Src, "func Load(image", "func Load image", 1))
	c := start(t)
	assert.Empty(t, c.waitPublished(c.open(file), 1))
	all := c.waitLogged("expected '('")
	assert.Regexp(t, `(?m)^hiplint: example.com/syntax/sdk: .*sdk.go:12:11: expected '\(', found image$`, all)
	assert.NotContains(t, all, "more errors")
	assert.NotContains(t, all, "note: cgo failed")
}
