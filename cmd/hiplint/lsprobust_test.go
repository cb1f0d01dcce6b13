package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
	"github.com/sourcegraph/jsonrpc2"
)

var hooked struct {
	once sync.Once
	bin  string
	err  error
}

// hookedBin returns hiplint built with the tag hiplint_testhooks
// (testhooks.go): with HIPLINT_TEST_STALL set, its language server runs an
// analyzer that never returns.
func hookedBin(t *testing.T) string {
	t.Helper()
	hooked.once.Do(func() {
		hooked.bin = filepath.Join(filepath.Dir(hiplintBin), "hiplint-hooked")
		out, err := exec.Command("go", "build", "-tags", "hiplint_testhooks", "-o", hooked.bin, ".").CombinedOutput()
		if err != nil {
			hooked.err = fmt.Errorf("building hiplint with its test hooks: %v\n%s", err, out)
		}
	})
	require.NoError(t, hooked.err)
	return hooked.bin
}

// TestLSPExitsDuringAnalysis runs `hiplint lsp` with an analyzer that never
// returns (the test hook): once the analysis is inside it, the process exits
// within a second of exit, with status 0 after shutdown and 1 without, as
// the protocol asks.
func TestLSPExitsDuringAnalysis(t *testing.T) {
	bin := hookedBin(t)
	for _, shutdown := range []bool{true, false} {
		t.Run(fmt.Sprintf("shutdown=%v", shutdown), func(t *testing.T) {
			dir := t.TempDir()
			require.NoError(t, os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/stall\n\ngo 1.26\n"), 0o644))
			file := filepath.Join(dir, "a.go")
			require.NoError(t, os.WriteFile(file, []byte("package a\n\nvar X = 1\n"), 0o644))
			marker := filepath.Join(t.TempDir(), "stalled")
			p := startLSPBin(t, bin, append(os.Environ(), "HIPLINT_TEST_STALL="+marker))

			p.call(t, "initialize", map[string]any{"processId": os.Getpid(), "rootUri": nil, "capabilities": map[string]any{}}, nil)
			p.notify(t, "initialized", map[string]any{})
			p.notify(t, "textDocument/didOpen", map[string]any{
				"textDocument": map[string]any{"uri": fileURI(file), "languageId": "go", "version": 1, "text": "package a\n\nvar X = 1\n"},
			})
			deadline := time.Now().Add(lspTimeout)
			for {
				if _, err := os.Stat(marker); err == nil {
					break
				}
				require.True(t, time.Now().Before(deadline), "the analysis did not reach the stalling analyzer")
				time.Sleep(20 * time.Millisecond)
			}

			if shutdown {
				p.call(t, "shutdown", nil, nil)
			}
			begin := time.Now()
			p.notify(t, "exit", nil)
			exited := make(chan error, 1)
			go func() { exited <- p.cmd.Wait() }()
			select {
			case err := <-exited:
				assert.Less(t, time.Since(begin), time.Second, "exited within a second of exit")
				if shutdown {
					assert.NoError(t, err, "status 0 after shutdown and exit")
				} else {
					var ee *exec.ExitError
					require.True(t, errors.As(err, &ee), "%v", err)
					assert.Equal(t, 1, ee.ExitCode(), "status 1 after exit without shutdown")
				}
			case <-time.After(30 * time.Second):
				t.Fatal("hiplint lsp did not exit within 30 s of exit")
			}
			p.conn.Close()
		})
	}
}

// rawLSP is `hiplint lsp` with its stdin written byte for byte.
type rawLSP struct {
	cmd    *exec.Cmd
	stdin  interface{ Write([]byte) (int, error) }
	stderr bytes.Buffer
	msgs   chan map[string]json.RawMessage
}

func startRawLSP(t *testing.T) *rawLSP {
	t.Helper()
	p := &rawLSP{msgs: make(chan map[string]json.RawMessage, 100)}
	p.cmd = exec.Command(hiplintBin, "lsp")
	p.cmd.Dir = t.TempDir()
	p.cmd.Stderr = &p.stderr
	stdin, err := p.cmd.StdinPipe()
	require.NoError(t, err)
	p.stdin = stdin
	stdout, err := p.cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, p.cmd.Start())
	go func() {
		defer close(p.msgs)
		r := bufio.NewReader(stdout)
		for {
			var m map[string]json.RawMessage
			if err := (jsonrpc2.VSCodeObjectCodec{}).ReadObject(r, &m); err != nil {
				return
			}
			if _, ok := m["method"]; !ok {
				p.msgs <- m
			}
		}
	}()
	t.Cleanup(func() {
		stdin.Close()
		if p.cmd.ProcessState == nil {
			p.cmd.Process.Kill()
			p.cmd.Wait()
		}
		t.Logf("hiplint lsp: %s", cpuTime(p.cmd.ProcessState))
	})
	return p
}

func (p *rawLSP) send(t *testing.T, raw string) {
	t.Helper()
	_, err := p.stdin.Write([]byte(raw))
	require.NoError(t, err)
}

func (p *rawLSP) reply(t *testing.T) map[string]json.RawMessage {
	t.Helper()
	select {
	case m, ok := <-p.msgs:
		require.True(t, ok, "hiplint lsp closed its output; stderr:\n%s", p.stderr.String())
		return m
	case <-time.After(lspTimeout):
		t.Fatalf("no reply within %v", lspTimeout)
		return nil
	}
}

// wait waits for the process to end and returns its exit status.
func (p *rawLSP) wait(t *testing.T) int {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- p.cmd.Wait() }()
	select {
	case err := <-done:
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return ee.ExitCode()
		}
		require.NoError(t, err)
		return 0
	case <-time.After(30 * time.Second):
		t.Fatal("hiplint lsp did not exit within 30 s")
		return -1
	}
}

func lspFrame(body string) string {
	return fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body)
}

// TestLSPSurvivesMalformedMessages writes to `hiplint lsp` a body that is
// not JSON and one that is no JSON-RPC message: each gets an error reply
// (-32700, -32600), the process goes on answering and exits with status 0
// after shutdown and exit, and its log says which message was malformed
// without saying the client closed the connection.
func TestLSPSurvivesMalformedMessages(t *testing.T) {
	t.Parallel()
	p := startRawLSP(t)
	p.send(t, lspFrame(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}`))
	assert.Contains(t, p.reply(t), "result")
	p.send(t, lspFrame(`{"jsonrpc":"2.0","method":"initialized","params":{}}`))

	p.send(t, lspFrame(`{"jsonrpc":"2.0","id":2,`))
	r := p.reply(t)
	assert.JSONEq(t, "null", string(r["id"]))
	assert.Contains(t, string(r["error"]), `"code":-32700`)
	p.send(t, lspFrame(`{"jsonrpc":"2.0","id":3}`))
	r = p.reply(t)
	assert.JSONEq(t, "3", string(r["id"]))
	assert.Contains(t, string(r["error"]), `"code":-32600`)

	p.send(t, lspFrame(`{"jsonrpc":"2.0","id":4,"method":"shutdown"}`))
	r = p.reply(t)
	assert.JSONEq(t, "4", string(r["id"]))
	assert.Contains(t, r, "result", "still answering")
	p.send(t, lspFrame(`{"jsonrpc":"2.0","method":"exit"}`))
	assert.Equal(t, exitClean, p.wait(t))
	stderr := p.stderr.String()
	t.Logf("stderr:\n%s", stderr)
	assert.Contains(t, stderr, "message 3 (24 bytes) is malformed: its body is not valid JSON")
	assert.Contains(t, stderr, "message 4 is malformed: its body is JSON but not a JSON-RPC request")
	assert.NotContains(t, stderr, "closed the connection")
}

// TestLSPBrokenFramingExits: a Content-Length that is not a number leaves
// no way to find the next message: `hiplint lsp` replies with an error
// saying so, logs it and exits with status 1 at once instead of waiting.
func TestLSPBrokenFramingExits(t *testing.T) {
	t.Parallel()
	p := startRawLSP(t)
	p.send(t, lspFrame(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}`))
	assert.Contains(t, p.reply(t), "result")
	p.send(t, "Content-Length: 12x\r\n\r\n{}")
	r := p.reply(t)
	assert.JSONEq(t, "null", string(r["id"]))
	assert.Contains(t, string(r["error"]), `"code":-32600`)
	assert.Equal(t, exitError, p.wait(t))
	stderr := p.stderr.String()
	t.Logf("stderr:\n%s", stderr)
	assert.Contains(t, stderr, `hiplint: lsp: the message stream is broken at message 2: Content-Length "12x" is not a byte count; no later message can be framed`)
	assert.NotContains(t, stderr, "closed the connection")
}

// TestLSPLargeBufferSaysWhyNoFixes opens, unsaved, a buffer of the -fix
// fixture padded to 9 MiB (the file on disk stays small): the finding is
// published without a quick fix, with a related note saying why, and the
// editor is told once (window/showMessage), at the default limit of 8 MiB.
func TestLSPLargeBufferSaysWhyNoFixes(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/large\n\ngo 1.26\n"), 0o644))
	file := filepath.Join(dir, "leak", "leak.go")
	copyFile(t, filepath.Join("testdata", "fix", "leak.go"), file)
	include := filepath.Join(repoRoot, "testdata", "include", "hip")
	for _, h := range []string{"hip_runtime_api.h", "hip_version.h"} {
		copyFile(t, filepath.Join(include, h), filepath.Join(dir, "leak", "include", "hip", h))
	}
	line := "// " + strings.Repeat("padding ", 15) + "\n"
	buffer := readFile(t, file) + strings.Repeat(line, 9<<20/len(line)+1)
	require.Greater(t, len(buffer), 9<<20)

	p := startLSP(t, os.Environ())
	p.call(t, "initialize", map[string]any{"processId": os.Getpid(), "rootUri": nil, "capabilities": map[string]any{}}, nil)
	p.notify(t, "initialized", map[string]any{})
	uri := fileURI(file)
	p.notify(t, "textDocument/didOpen", map[string]any{
		"textDocument": map[string]any{"uri": uri, "languageId": "go", "version": 1, "text": buffer},
	})
	raw := p.waitDiagnostics(t, uri)
	require.Len(t, raw, 1, "the finding of the large buffer is published")
	var d struct {
		Code               string          `json:"code"`
		Range              json.RawMessage `json:"range"`
		RelatedInformation []struct {
			Message string `json:"message"`
		} `json:"relatedInformation"`
	}
	require.NoError(t, json.Unmarshal(raw[0], &d))
	assert.Equal(t, "HL2001", d.Code)
	var notes []string
	for _, r := range d.RelatedInformation {
		notes = append(notes, r.Message)
	}
	assert.Contains(t, notes, "no quick fix: the file is larger than 8 MiB, the largest for which hiplint offers fixes")

	var actions []json.RawMessage
	p.call(t, "textDocument/codeAction", map[string]any{
		"textDocument": map[string]any{"uri": uri},
		"range":        d.Range,
		"context":      map[string]any{"diagnostics": []json.RawMessage{raw[0]}},
	}, &actions)
	assert.Empty(t, actions, "no quick fix for a buffer over the limit")
	p.mu.Lock()
	shown := slices.Clone(p.shown)
	p.mu.Unlock()
	require.Len(t, shown, 1, "the editor is told once")
	assert.Equal(t, "hiplint: "+file+": 1 finding comes without quick fixes: the file is larger than 8 MiB, the largest for which hiplint offers fixes (docs/editors.md, \"Limits\")", shown[0])

	p.call(t, "shutdown", nil, nil)
	p.notify(t, "exit", nil)
	require.NoError(t, p.cmd.Wait())
	p.conn.Close()
}
