package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf16"

	"github.com/hiplint/hiplint/analyzers"
	"github.com/hiplint/hiplint/internal/testenv"
	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
	"github.com/sourcegraph/jsonrpc2"
)

// The tests drive the server in memory, as an editor would over stdio,
// through a jsonrpc2 client on the other end of a pipe.

// repoRoot is the module root, where examples/ and testdata/ live.
var repoRoot, _ = filepath.Abs(filepath.Join("..", ".."))

// waitFor is how long a test waits for an analysis: loading a cgo package
// with its dependencies from source takes seconds on a busy machine.
const waitFor = 2 * time.Minute

// client is the editor's end of the connection.
type client struct {
	t      *testing.T
	conn   *jsonrpc2.Conn
	server *Server
	done   chan error

	mu          sync.Mutex
	published   map[string][]publishDiagnosticsParams // by URI, in order
	logs        []logMessageParams
	shown       []logMessageParams // window/showMessage
	exited      bool               // the test ended the conversation itself
	unsupported []string           // server-to-client methods the client did not expect
	analyzed    []string           // the directories the server analyzed, in order
}

// start runs a server with hiplint's analyzers and connects a client to it.
// The test's cleanup shuts it down and checks that it exits cleanly.
func start(t *testing.T, configure ...func(*Options)) *client {
	t.Helper()
	opts := Options{
		Analyzers: analyzers.Suite(),
		Checks:    analyzers.Checks(),
		Tests:     true,
		Debounce:  50 * time.Millisecond,
		Log:       testLog{t},
	}
	for _, f := range configure {
		f(&opts)
	}
	serverEnd, clientEnd := pipe()
	c := &client{t: t, server: newServer(opts), done: make(chan error, 1), published: map[string][]publishDiagnosticsParams{}}
	c.server.analyzed = func(dir string) {
		c.mu.Lock()
		defer c.mu.Unlock()
		c.analyzed = append(c.analyzed, dir)
	}
	go func() { c.done <- c.server.serve(context.Background(), serverEnd) }()
	c.conn = jsonrpc2.NewConn(context.Background(), jsonrpc2.NewBufferedStream(clientEnd, jsonrpc2.VSCodeObjectCodec{}),
		jsonrpc2.HandlerWithError(c.handle))
	t.Cleanup(func() {
		c.mu.Lock()
		exited := c.exited
		c.mu.Unlock()
		if exited {
			c.conn.Close()
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), waitFor)
		defer cancel()
		assert.NoError(t, c.conn.Call(ctx, methodShutdown, nil, nil), "shutdown")
		assert.NoError(t, c.conn.Notify(ctx, methodExit, nil), "exit")
		select {
		case err := <-c.done:
			assert.NoError(t, err, "the server's exit")
		case <-ctx.Done():
			t.Error("the server did not exit")
		}
		c.conn.Close()
	})

	var res initializeResult
	c.call(methodInitialize, map[string]any{"processId": nil, "rootUri": nil, "capabilities": map[string]any{}}, &res)
	assert.Equal(t, "hiplint", res.ServerInfo.Name)
	assert.True(t, res.Capabilities.TextDocumentSync.OpenClose)
	assert.Equal(t, []string{codeActionQuickFix}, res.Capabilities.CodeActionProvider.CodeActionKinds)
	c.notify(methodInitialized, map[string]any{})
	return c
}

type testLog struct{ t *testing.T }

func (l testLog) Write(p []byte) (int, error) {
	l.t.Log(strings.TrimSuffix(string(p), "\n"))
	return len(p), nil
}

func (c *client) handle(_ context.Context, _ *jsonrpc2.Conn, req *jsonrpc2.Request) (any, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch req.Method {
	case methodPublishDiagnostics:
		var p publishDiagnosticsParams
		if err := json.Unmarshal(*req.Params, &p); err != nil {
			return nil, err
		}
		c.published[p.URI] = append(c.published[p.URI], p)
	case methodLogMessage:
		var p logMessageParams
		if err := json.Unmarshal(*req.Params, &p); err != nil {
			return nil, err
		}
		c.logs = append(c.logs, p)
	case methodShowMessage:
		var p logMessageParams
		if err := json.Unmarshal(*req.Params, &p); err != nil {
			return nil, err
		}
		c.shown = append(c.shown, p)
	default:
		c.unsupported = append(c.unsupported, req.Method)
	}
	return nil, nil
}

func (c *client) call(method string, params, result any) {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitFor)
	defer cancel()
	require.NoError(c.t, c.conn.Call(ctx, method, params, result), method)
}

func (c *client) notify(method string, params any) {
	c.t.Helper()
	require.NoError(c.t, c.conn.Notify(context.Background(), method, params), method)
}

// open sends didOpen of file with its content on disk, and returns its URI.
func (c *client) open(file string) string {
	c.t.Helper()
	data, err := os.ReadFile(file)
	require.NoError(c.t, err)
	uri := pathToURI(file)
	c.notify(methodDidOpen, didOpenParams{TextDocument: textDocumentItem{URI: uri, LanguageID: "go", Version: 1, Text: string(data)}})
	return uri
}

// waitPublished waits until the server has published diagnostics for uri n
// times, and returns the last of them.
func (c *client) waitPublished(uri string, n int) []diagnostic {
	c.t.Helper()
	return c.waitPublication(uri, n).Diagnostics
}

// waitPublication is waitPublished returning the whole publication, its
// version included.
func (c *client) waitPublication(uri string, n int) publishDiagnosticsParams {
	c.t.Helper()
	deadline := time.Now().Add(waitFor)
	for time.Now().Before(deadline) {
		c.mu.Lock()
		list := c.published[uri]
		c.mu.Unlock()
		if len(list) >= n {
			return list[n-1]
		}
		time.Sleep(20 * time.Millisecond)
	}
	c.t.Fatalf("no diagnostics published for %s after %v (%d publications wanted)", uri, waitFor, n)
	return publishDiagnosticsParams{}
}

// waitLogged waits until the server has logged (window/logMessage) a
// message containing each of subs, and returns every message so far, one
// per line. The client handles notifications as they come, so a log the
// server sent before a publication may be handled after it.
func (c *client) waitLogged(subs ...string) string {
	c.t.Helper()
	deadline := time.Now().Add(waitFor)
	for {
		c.mu.Lock()
		var logged []string
		for _, l := range c.logs {
			logged = append(logged, l.Message)
		}
		c.mu.Unlock()
		all := strings.Join(logged, "\n")
		missing := slices.DeleteFunc(slices.Clone(subs), func(s string) bool { return strings.Contains(all, s) })
		if len(missing) == 0 || time.Now().After(deadline) {
			return all // the caller's assertions say what is missing
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func (c *client) publications(uri string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.published[uri])
}

// analyses returns the directories analyzed so far, in order.
func (c *client) analyses() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.analyzed)
}

func (c *client) codeActions(uri string, rng lspRange, diags ...diagnostic) []codeAction {
	c.t.Helper()
	var actions []codeAction
	c.call(methodCodeAction, codeActionParams{
		TextDocument: textDocumentIdentifier{URI: uri},
		Range:        rng,
		Context:      codeActionContext{Diagnostics: diags},
	}, &actions)
	return actions
}

// tempModule returns a new module, in a directory the test has to itself
// (moduleSlot), holding copies of the example kernelcache
// (examples/kernelcache, whose cgo preamble finds the fixture headers at
// ../../testdata/include) and of cmd/hiplint's -fix fixture (leak/, with
// the fixture HIP headers under leak/include).
func tempModule(t *testing.T) string {
	t.Helper()
	dir := moduleSlot(t)
	write(t, filepath.Join(dir, "go.mod"), "module example.com/lsptest\n\ngo 1.26\n")
	copyFile(t, filepath.Join(repoRoot, "examples", "kernelcache", "kernelcache.go"), filepath.Join(dir, "examples", "kernelcache", "kernelcache.go"))
	include := filepath.Join(repoRoot, "testdata", "include")
	require.NoError(t, filepath.WalkDir(include, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(include, path)
		copyFile(t, path, filepath.Join(dir, "testdata", "include", rel))
		if filepath.Dir(rel) == "hip" {
			// hip_runtime_api.h includes <hip/hip_version.h>: without GPU
			// headers installed, leak.go's include directory must hold both.
			copyFile(t, path, filepath.Join(dir, "leak", "include", rel))
		}
		return nil
	}))
	copyFile(t, filepath.Join(repoRoot, "cmd", "hiplint", "testdata", "fix", "leak.go"), filepath.Join(dir, "leak", "leak.go"))
	return dir
}

// moduleSlots are the directories moduleSlot hands out, under slotRoot.
var (
	moduleSlots testenv.Slots
	slotRoot    string
)

// moduleSlot returns an empty directory that no other test uses until this
// one ends (testenv.Slots): tempModule's module, written again into a
// directory where an earlier test had it, finds its cgo output and the
// compile of kernelcache and leak in the build cache (about 2 s of CPU for
// each of the eight tests that take one). The module's headers are copied
// with it, the same in every test, so no cgo output made with other
// headers is reused.
func moduleSlot(t *testing.T) string {
	t.Helper()
	return moduleSlots.Get(t, slotRoot)
}

func TestMain(m *testing.M) {
	root, err := os.MkdirTemp("", "hiplint-lsp-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	slotRoot = root
	code := m.Run()
	os.RemoveAll(root)
	os.Exit(code)
}

func write(t *testing.T, name, content string) {
	t.Helper()
	require.NoError(t, os.MkdirAll(filepath.Dir(name), 0o755))
	require.NoError(t, os.WriteFile(name, []byte(content), 0o644))
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	data, err := os.ReadFile(from)
	require.NoError(t, err)
	write(t, to, string(data))
}

func readFile(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(name)
	require.NoError(t, err)
	return string(data)
}

// applyEdits applies protocol edits (UTF-16 positions) to text, as an
// editor does.
func applyEdits(t *testing.T, text string, edits []textEdit) string {
	t.Helper()
	sorted := slices.Clone(edits)
	slices.SortFunc(sorted, func(a, b textEdit) int { return offsetOf(t, text, b.Range.Start) - offsetOf(t, text, a.Range.Start) })
	for _, e := range sorted {
		text = text[:offsetOf(t, text, e.Range.Start)] + e.NewText + text[offsetOf(t, text, e.Range.End):]
	}
	return text
}

func offsetOf(t *testing.T, text string, p position) int {
	t.Helper()
	i := 0
	for line := 0; line < p.Line; line++ {
		j := strings.IndexByte(text[i:], '\n')
		require.GreaterOrEqual(t, j, 0, "the text has no line %d", p.Line)
		i += j + 1
	}
	units := 0
	for k, r := range text[i:] {
		if units >= p.Character || r == '\n' {
			return i + k
		}
		units += utf16.RuneLen(r)
	}
	return len(text)
}
