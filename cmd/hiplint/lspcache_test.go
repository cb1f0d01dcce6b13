package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
)

// TestLSPResultCache: a second `hiplint lsp` on the same cache publishes a
// directory it has not analyzed from the cache, the diagnostics being what
// the first server and a server with -cache=off publish; an unsaved edit
// is a miss.
func TestLSPResultCache(t *testing.T) {
	t.Parallel()
	dir, include := sharedCacheModule(t)
	cache := filepath.Join(t.TempDir(), "cache")
	file := filepath.Join(dir, "reload", "reload.go")
	data, err := os.ReadFile(file)
	require.NoError(t, err)
	uri := fileURI(file)

	// Each session logs the time from the opening (and edit) of the file
	// to its diagnostics: docs/performance.md, "Result cache".
	session := func(text string, args ...string) ([]json.RawMessage, []cacheStats) {
		t.Helper()
		stats := filepath.Join(t.TempDir(), "stats.jsonl")
		env := append(os.Environ(), "HIPLINT_CACHE="+cache, "HIPLINT_CACHE_STATS="+stats, "CGO_CFLAGS=-I"+include)
		p := startLSP(t, env, args...)
		var init map[string]any
		p.call(t, "initialize", map[string]any{"processId": os.Getpid(), "rootUri": fileURI(dir), "capabilities": map[string]any{}}, &init)
		p.notify(t, "initialized", map[string]any{})
		start := time.Now()
		p.notify(t, "textDocument/didOpen", map[string]any{
			"textDocument": map[string]any{"uri": uri, "languageId": "go", "version": 1, "text": string(data)},
		})
		if text != "" {
			p.notify(t, "textDocument/didChange", map[string]any{
				"textDocument":   map[string]any{"uri": uri, "version": 2},
				"contentChanges": []map[string]any{{"text": text}},
			})
		}
		diags := p.waitDiagnostics(t, uri)
		t.Logf("args %q, edited %v: diagnostics %.2fs after didOpen", args, text != "", time.Since(start).Seconds())
		p.call(t, "shutdown", nil, nil)
		p.notify(t, "exit", nil)
		p.cmd.Wait()
		p.conn.Close()
		return diags, readCacheStats(t, stats)
	}

	first, stats := session("")
	require.NotEmpty(t, first, "reload.go has findings")
	require.NotEmpty(t, stats)
	assert.Equal(t, []string{filepath.Dir(file)}, stats[0].Analyzed)

	second, stats := session("")
	assert.Equal(t, first, second)
	require.NotEmpty(t, stats)
	assert.Equal(t, []string{filepath.Dir(file)}, stats[0].Hits, "answered from the cache")

	off, stats := session("", "-cache=off")
	assert.Equal(t, first, off)
	assert.Empty(t, stats)

	// An unsaved buffer is part of the key: a blank line added on top
	// moves every finding one line down.
	edited, stats := session("\n" + string(data))
	require.NotEmpty(t, stats)
	assert.Empty(t, stats[len(stats)-1].Hits)
	assert.NotEqual(t, first, edited)
}
