package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hiplint/hiplint/internal/testenv"
	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
	"github.com/sourcegraph/jsonrpc2"
)

// The language server's own tests (internal/lsp) drive it in memory; these
// run `hiplint lsp` as editors do, a process speaking on stdin and stdout.

// lspTimeout bounds one test's conversation: the first analysis loads a cgo
// package and its dependencies from source.
const lspTimeout = 3 * time.Minute

// fileURI is the file: URI of an absolute path.
func fileURI(path string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(path)}).String()
}

// lspProcess is `hiplint lsp` with a client connected to its stdio.
type lspProcess struct {
	cmd    *exec.Cmd
	conn   *jsonrpc2.Conn
	stderr lockedBuffer

	mu        sync.Mutex
	published map[string][]json.RawMessage // diagnostics by URI, last publication
	versions  map[string]int32             // the version of the last publication, by URI
	sent      map[string]int32             // the version of the last didOpen or didChange sent, by URI (open, edit)
	logs      []string
	shown     []string // window/showMessage
}

// lockedBuffer is the server's standard error, which a test may read while
// the process writes it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// stderrText is what the server has written to its standard error so far.
func (p *lspProcess) stderrText() string { return p.stderr.String() }

// stderrCount waits, at most lspTimeout, until the server's stderr holds n
// occurrences of sub, and returns how many it holds: the server logs an
// edit's analysis after it publishes its diagnostics, and the pipe may
// deliver the line after the test has read them.
func (p *lspProcess) stderrCount(sub string, n int) int {
	deadline := time.Now().Add(lspTimeout)
	for {
		c := strings.Count(p.stderrText(), sub)
		if c >= n || time.Now().After(deadline) {
			return c
		}
		time.Sleep(20 * time.Millisecond)
	}
}

type stdioPipes struct {
	io.ReadCloser
	io.WriteCloser
}

func (p stdioPipes) Close() error {
	p.WriteCloser.Close()
	return p.ReadCloser.Close()
}

func startLSP(t *testing.T, env []string, args ...string) *lspProcess {
	t.Helper()
	return startLSPBin(t, hiplintBin, env, args...)
}

// startLSPBin is startLSP with another binary (hookedBin).
func startLSPBin(t *testing.T, bin string, env []string, args ...string) *lspProcess {
	t.Helper()
	p := &lspProcess{published: map[string][]json.RawMessage{}, versions: map[string]int32{}}
	p.cmd = exec.Command(bin, append([]string{"lsp"}, args...)...)
	p.cmd.Env = env
	p.cmd.Dir = t.TempDir()
	p.cmd.Stderr = &p.stderr
	stdin, err := p.cmd.StdinPipe()
	require.NoError(t, err)
	stdout, err := p.cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, p.cmd.Start())
	p.conn = jsonrpc2.NewConn(context.Background(), jsonrpc2.NewBufferedStream(stdioPipes{stdout, stdin}, jsonrpc2.VSCodeObjectCodec{}),
		jsonrpc2.HandlerWithError(func(_ context.Context, _ *jsonrpc2.Conn, req *jsonrpc2.Request) (any, error) {
			p.mu.Lock()
			defer p.mu.Unlock()
			switch req.Method {
			case "textDocument/publishDiagnostics":
				var params struct {
					URI         string            `json:"uri"`
					Version     *int32            `json:"version"`
					Diagnostics []json.RawMessage `json:"diagnostics"`
				}
				if err := json.Unmarshal(*req.Params, &params); err != nil {
					return nil, err
				}
				p.published[params.URI] = params.Diagnostics
				if params.Version != nil {
					p.versions[params.URI] = *params.Version
				}
			case "window/logMessage":
				var params struct {
					Message string `json:"message"`
				}
				if err := json.Unmarshal(*req.Params, &params); err != nil {
					return nil, err
				}
				p.logs = append(p.logs, params.Message)
			case "window/showMessage":
				var params struct {
					Message string `json:"message"`
				}
				if err := json.Unmarshal(*req.Params, &params); err != nil {
					return nil, err
				}
				p.shown = append(p.shown, params.Message)
			}
			return nil, nil
		}))
	t.Cleanup(func() {
		if p.cmd.ProcessState == nil {
			p.cmd.Process.Kill()
			p.cmd.Wait()
		}
		t.Logf("hiplint lsp (%s) stderr:\n%s", cpuTime(p.cmd.ProcessState), p.stderr.String())
	})
	return p
}

func (p *lspProcess) call(t *testing.T, method string, params, result any) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), lspTimeout)
	defer cancel()
	require.NoError(t, p.conn.Call(ctx, method, params, result), method)
}

func (p *lspProcess) notify(t *testing.T, method string, params any) {
	t.Helper()
	require.NoError(t, p.conn.Notify(context.Background(), method, params), method)
}

// waitDiagnostics waits for the first publication of uri's diagnostics.
func (p *lspProcess) waitDiagnostics(t *testing.T, uri string) []json.RawMessage {
	t.Helper()
	deadline := time.Now().Add(lspTimeout)
	for time.Now().Before(deadline) {
		p.mu.Lock()
		diags, ok := p.published[uri]
		p.mu.Unlock()
		if ok {
			return diags
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("no diagnostics for %s within %v", uri, lspTimeout)
	return nil
}

// waitLogged waits until a window/logMessage contains sub.
func (p *lspProcess) waitLogged(t *testing.T, sub string) {
	t.Helper()
	deadline := time.Now().Add(lspTimeout)
	for time.Now().Before(deadline) {
		p.mu.Lock()
		logs := strings.Join(p.logs, "\n")
		p.mu.Unlock()
		if strings.Contains(logs, sub) {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Errorf("no log message contains %q within %v", sub, lspTimeout)
}

// TestLSPOverStdioWithoutGPUHeaders runs `hiplint lsp -tags rocm` on a
// machine whose C compiler finds no GPU headers: the server uses hiplint's
// declarations, says so, publishes the marked finding, and exits cleanly
// after shutdown and exit.
func TestLSPOverStdioWithoutGPUHeaders(t *testing.T) {
	t.Parallel()
	p := startLSP(t, testenv.NoGPUHeaders(t), "-tags", "rocm")

	var init struct {
		Capabilities map[string]any `json:"capabilities"`
		ServerInfo   struct {
			Name string `json:"name"`
		} `json:"serverInfo"`
	}
	p.call(t, "initialize", map[string]any{"processId": os.Getpid(), "rootUri": nil, "capabilities": map[string]any{}}, &init)
	assert.Equal(t, "hiplint", init.ServerInfo.Name)
	assert.Contains(t, init.Capabilities, "codeActionProvider")
	p.notify(t, "initialized", map[string]any{})

	const rel = "cmd/hiplint/testdata/headerless/hipcode/hip_rocm.go"
	file := filepath.Join(repoRoot, rel)
	data, err := os.ReadFile(file)
	require.NoError(t, err)
	uri := fileURI(file)
	p.notify(t, "textDocument/didOpen", map[string]any{
		"textDocument": map[string]any{"uri": uri, "languageId": "go", "version": 1, "text": string(data)},
	})
	raw := p.waitDiagnostics(t, uri)
	var got []mark
	for _, r := range raw {
		var d struct {
			Range struct {
				Start struct {
					Line int `json:"line"`
				} `json:"start"`
			} `json:"range"`
			Code   string `json:"code"`
			Source string `json:"source"`
		}
		require.NoError(t, json.Unmarshal(r, &d))
		assert.Equal(t, "hiplint", d.Source)
		got = append(got, mark{rel, d.Range.Start.Line + 1, d.Code})
	}
	assert.Equal(t, markedHazards(t, rel), got)
	// Without GPU headers, every header hiplint can supply is missing; the
	// note names the one the HIP code includes, and no CUDA header. The
	// analysis logs it, and may do so after the publication.
	p.waitLogged(t, "finds no")
	p.mu.Lock()
	assert.Contains(t, p.logs, "hiplint: the C compiler finds no <hip/hip_runtime_api.h>; cgo uses hiplint's declarations of the runtime API instead (-headers=system turns this off)")
	for _, l := range p.logs {
		assert.NotContains(t, l, "cuda", "a HIP-only module hears nothing of CUDA")
	}
	p.mu.Unlock()

	p.call(t, "shutdown", nil, nil)
	p.notify(t, "exit", nil)
	require.NoError(t, p.cmd.Wait(), "hiplint lsp exits with status 0 after shutdown and exit")
	p.conn.Close()
}

// TestNeovimQuickFix runs a headless Neovim with hiplint as its language
// server on a copy of examples/peercopy (testdata/nvim/quickfix.lua): the
// marked finding arrives as a diagnostic, and the quick fix Neovim applies
// makes the file `hiplint -fix` makes. The copy on disk is left alone.
func TestNeovimQuickFix(t *testing.T) {
	nvim, err := exec.LookPath("nvim")
	if err != nil {
		t.Skip("nvim is not installed (apt-get install neovim): the Neovim test needs it")
	}
	t.Parallel()

	const rel = "examples/peercopy/peercopy.go"
	editorCopy, fixCopy := exampleModule(t, rel), exampleModule(t, rel)
	file := filepath.Join(editorCopy, rel)
	before := readFile(t, file)

	res := hiplint(t, filepath.Dir(filepath.Join(fixCopy, rel)), "-fix", ".")
	require.Equal(t, exitClean, res.code, "-fix fixes the example")
	want := readFile(t, filepath.Join(fixCopy, rel))
	require.NotEqual(t, before, want)

	work := t.TempDir()
	report, fixed := filepath.Join(work, "report.json"), filepath.Join(work, "fixed.go")
	script, err := filepath.Abs(filepath.Join("testdata", "nvim", "quickfix.lua"))
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), lspTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, nvim, "--headless", "--clean", "-c", "luafile "+script)
	cmd.Dir = filepath.Dir(file)
	cmd.Env = append(os.Environ(),
		"HIPLINT_BIN="+hiplintBin, "HIPLINT_FILE="+file, "HIPLINT_OUT="+report, "HIPLINT_FIXED="+fixed,
		// Neovim's own state goes to the test's directory, not the home directory.
		"XDG_CONFIG_HOME="+filepath.Join(work, "config"), "XDG_DATA_HOME="+filepath.Join(work, "data"),
		"XDG_STATE_HOME="+filepath.Join(work, "state"))
	out, err := cmd.CombinedOutput()
	t.Logf("nvim (%s) output:\n%s", cpuTime(cmd.ProcessState), out)
	require.NoError(t, err, "nvim")

	var got struct {
		Diagnostics []struct {
			Code    string `json:"code"`
			Lnum    int    `json:"lnum"`
			Message string `json:"message"`
			Source  string `json:"source"`
		} `json:"diagnostics"`
		Actions []struct {
			Title string `json:"title"`
			Kind  string `json:"kind"`
		} `json:"actions"`
		Applied string `json:"applied"`
	}
	require.NoError(t, json.Unmarshal([]byte(readFile(t, report)), &got))
	var marks []mark
	for _, d := range got.Diagnostics {
		assert.Equal(t, "hiplint", d.Source)
		assert.NotEmpty(t, d.Message)
		marks = append(marks, mark{rel, d.Lnum + 1, d.Code})
	}
	assert.Equal(t, markedHazards(t, rel), marks, "the marked hazards, as Neovim received them")
	require.NotEmpty(t, got.Applied, "Neovim applied a quick fix; actions offered: %v", got.Actions)
	assert.Equal(t, want, readFile(t, fixed), "the quick fix makes what -fix makes")
	assert.Equal(t, before, readFile(t, file), "the server wrote nothing")
}

// exampleModule copies one example file into a module of its own, with the
// fixture headers where the example's #cgo CFLAGS look for them
// (../../testdata/include), and returns the module's directory.
func exampleModule(t *testing.T, rel string) string {
	t.Helper()
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/lspexample\n\ngo 1.26\n"), 0o644))
	copyFile(t, filepath.Join(repoRoot, rel), filepath.Join(dir, rel))
	include := filepath.Join(repoRoot, "testdata", "include")
	require.NoError(t, filepath.WalkDir(include, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		r, err := filepath.Rel(include, path)
		if err != nil {
			return err
		}
		copyFile(t, path, filepath.Join(dir, "testdata", "include", r))
		return nil
	}))
	return dir
}

// TestNeovimConfigFromTheDocs runs the Neovim configuration that
// docs/editors.md gives for every Neovim from 0.7 on, as it is, in the
// installed nvim, with hiplint on PATH, on a copy of examples/kernelcache
// (testdata/nvim/edit.lua): opening the Go file starts the server and shows
// the marked finding; lines inserted above it, unsaved, move the diagnostic
// down by as many lines; a second file of the module shares the server.
func TestNeovimConfigFromTheDocs(t *testing.T) {
	nvim, err := exec.LookPath("nvim")
	if err != nil {
		t.Skip("nvim is not installed (apt-get install neovim): the Neovim test needs it")
	}
	t.Parallel()

	const rel, insert = "examples/kernelcache/kernelcache.go", 3
	dir := exampleModule(t, rel)
	file := filepath.Join(dir, rel)
	other := filepath.Join(filepath.Dir(file), "other.go")
	require.NoError(t, os.WriteFile(other, []byte("package kernelcache\n\nconst other = 1\n"), 0o644))
	before := readFile(t, file)

	work := t.TempDir()
	initLua := filepath.Join(work, "init.lua")
	require.NoError(t, os.WriteFile(initLua, []byte(docsNeovimConfig(t)), 0o644))
	report := filepath.Join(work, "report.json")
	script, err := filepath.Abs(filepath.Join("testdata", "nvim", "edit.lua"))
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), lspTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, nvim, "--headless", "-u", initLua, "-i", "NONE", "-c", "luafile "+script)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(),
		"PATH="+filepath.Dir(hiplintBin)+string(os.PathListSeparator)+os.Getenv("PATH"),
		"HIPLINT_FILE="+file, "HIPLINT_OTHER="+other, "HIPLINT_OUT="+report, fmt.Sprintf("HIPLINT_INSERT=%d", insert),
		"XDG_CONFIG_HOME="+filepath.Join(work, "config"), "XDG_DATA_HOME="+filepath.Join(work, "data"),
		"XDG_STATE_HOME="+filepath.Join(work, "state"))
	out, err := cmd.CombinedOutput()
	t.Logf("nvim (%s) output:\n%s", cpuTime(cmd.ProcessState), out)
	require.NoError(t, err, "nvim")

	type diagnostic struct {
		Code    string `json:"code"`
		Lnum    int    `json:"lnum"`
		Message string `json:"message"`
		Source  string `json:"source"`
	}
	var got struct {
		Version  string       `json:"version"`
		Before   []diagnostic `json:"before"`
		After    []diagnostic `json:"after"`
		Modified bool         `json:"modified"`
		Clients  int          `json:"clients"`
	}
	require.NoError(t, json.Unmarshal([]byte(readFile(t, report)), &got))
	t.Logf("Neovim %s", got.Version)

	want := markedHazards(t, rel)
	require.Len(t, want, 1)
	require.Len(t, got.Before, 1, "the marked finding")
	assert.Equal(t, "hiplint", got.Before[0].Source)
	assert.Equal(t, want[0].id, got.Before[0].Code)
	assert.Equal(t, want[0].line, got.Before[0].Lnum+1)
	require.Len(t, got.After, 1, "the finding, after the unsaved edit")
	assert.Equal(t, want[0].line+insert, got.After[0].Lnum+1, "moved down with the inserted lines")
	assert.Equal(t, got.Before[0].Message, got.After[0].Message)
	assert.True(t, got.Modified, "the buffer was not saved")
	assert.Equal(t, before, readFile(t, file), "the file on disk is as it was")
	assert.Equal(t, 1, got.Clients, "one hiplint server for the module's two files")
}

// docsNeovimConfig returns the Lua block of docs/editors.md that follows
// the comment naming TestNeovimConfigFromTheDocs.
func docsNeovimConfig(t *testing.T) string {
	t.Helper()
	doc := readFile(t, filepath.Join(repoRoot, "docs", "editors.md"))
	_, rest, ok := strings.Cut(doc, "TestNeovimConfigFromTheDocs runs this block")
	require.True(t, ok, "docs/editors.md names the block this test runs")
	_, rest, ok = strings.Cut(rest, "```lua\n")
	require.True(t, ok)
	block, _, ok := strings.Cut(rest, "```\n")
	require.True(t, ok)
	return block
}
