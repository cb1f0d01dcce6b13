// Command lspedit measures the language server's latency from an unsaved
// edit to its diagnostics (issue 33: "edit to published diagnostics under
// 1 s for a package that is cached"). It starts `hiplint lsp` in a module,
// opens one file, waits for its first diagnostics (the workspace analyzed
// once), then sends -edits unsaved edits of that file, one at a time: each
// appends a different comment line to the buffer (the findings stay), and
// the time from the didChange to the publishDiagnostics of that version is
// one sample. The server's debounce (500 ms after the last keystroke) is
// part of every sample, as the user sees it.
//
// It prints each sample, their median and the load average before and
// after; with -check, the diagnostics of each edit must equal those of the
// first publication (the appended comment moves nothing).
//
// Usage: lspedit [-bin hiplint] [-edits 7] [-settle 1s] MODULE_DIR FILE [lsp flags...]
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/sourcegraph/jsonrpc2"
)

type stdioPipes struct {
	io.ReadCloser
	io.WriteCloser
}

func (p stdioPipes) Close() error {
	p.WriteCloser.Close()
	return p.ReadCloser.Close()
}

type published struct {
	version     int32
	diagnostics json.RawMessage
	at          time.Time
}

func main() {
	bin := flag.String("bin", "hiplint", "the hiplint binary")
	edits := flag.Int("edits", 7, "unsaved edits to time")
	settle := flag.Duration("settle", time.Second, "pause between one edit's diagnostics and the next edit")
	check := flag.Bool("check", true, "fail when an edit's diagnostics differ from the first publication's")
	flag.Parse()
	if flag.NArg() < 2 {
		fmt.Fprintln(os.Stderr, "usage: lspedit [-bin hiplint] [-edits N] MODULE_DIR FILE [lsp flags...]")
		os.Exit(2)
	}
	dir, err := filepath.Abs(flag.Arg(0))
	if err != nil {
		fail(err)
	}
	file := flag.Arg(1)
	if !filepath.IsAbs(file) {
		file = filepath.Join(dir, file)
	}
	text, err := os.ReadFile(file)
	if err != nil {
		fail(err)
	}
	uri := (&url.URL{Scheme: "file", Path: filepath.ToSlash(file)}).String()

	var mu sync.Mutex
	var pubs []published
	cond := sync.NewCond(&mu)
	cmd := exec.Command(*bin, append([]string{"lsp"}, flag.Args()[2:]...)...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		fail(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		fail(err)
	}
	if err := cmd.Start(); err != nil {
		fail(err)
	}
	defer func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
			cmd.Wait()
		}
	}()
	conn := jsonrpc2.NewConn(context.Background(), jsonrpc2.NewBufferedStream(stdioPipes{stdout, stdin}, jsonrpc2.VSCodeObjectCodec{}),
		jsonrpc2.HandlerWithError(func(_ context.Context, _ *jsonrpc2.Conn, req *jsonrpc2.Request) (any, error) {
			if req.Method != "textDocument/publishDiagnostics" {
				return nil, nil
			}
			var p struct {
				URI         string          `json:"uri"`
				Version     *int32          `json:"version"`
				Diagnostics json.RawMessage `json:"diagnostics"`
			}
			if err := json.Unmarshal(*req.Params, &p); err != nil || p.URI != uri || p.Version == nil {
				return nil, err
			}
			mu.Lock()
			pubs = append(pubs, published{*p.Version, p.Diagnostics, time.Now()})
			cond.Broadcast()
			mu.Unlock()
			return nil, nil
		}))
	ctx := context.Background()
	wait := func(version int32) published {
		timeout := time.AfterFunc(10*time.Minute, func() {
			fmt.Fprintf(os.Stderr, "no diagnostics of version %d within 10 minutes\n%s", version, stderr.String())
			os.Exit(1)
		})
		defer timeout.Stop()
		mu.Lock()
		defer mu.Unlock()
		for {
			if i := slices.IndexFunc(pubs, func(p published) bool { return p.version == version }); i >= 0 {
				return pubs[i]
			}
			cond.Wait()
		}
	}

	fmt.Printf("load average before: %s\n", loadavg())
	if err := conn.Call(ctx, "initialize", map[string]any{"processId": os.Getpid(), "rootUri": (&url.URL{Scheme: "file", Path: dir}).String(), "capabilities": map[string]any{}}, nil); err != nil {
		fail(err)
	}
	conn.Notify(ctx, "initialized", map[string]any{})
	start := time.Now()
	conn.Notify(ctx, "textDocument/didOpen", map[string]any{
		"textDocument": map[string]any{"uri": uri, "languageId": "go", "version": 1, "text": string(text)},
	})
	first := wait(1)
	fmt.Printf("open -> diagnostics: %.3f s (%d bytes of diagnostics)\n", first.at.Sub(start).Seconds(), len(first.diagnostics))
	var samples []time.Duration
	bad := false
	for i := range *edits {
		time.Sleep(*settle)
		version := int32(i + 2)
		buf := append(slices.Clip(text), fmt.Sprintf("\n// lspedit %d\n", i)...)
		start := time.Now()
		conn.Notify(ctx, "textDocument/didChange", map[string]any{
			"textDocument":   map[string]any{"uri": uri, "version": version},
			"contentChanges": []map[string]any{{"text": string(buf)}},
		})
		p := wait(version)
		d := p.at.Sub(start)
		samples = append(samples, d)
		same := bytes.Equal(p.diagnostics, first.diagnostics)
		bad = bad || !same
		fmt.Printf("edit %d -> diagnostics: %.3f s (same as the first: %v)\n", i+1, d.Seconds(), same)
	}
	fmt.Printf("load average after: %s\n", loadavg())
	if len(samples) > 0 {
		sorted := slices.Sorted(slices.Values(samples))
		fmt.Printf("median of %d edits: %.3f s (min %.3f, max %.3f)\n", len(sorted), sorted[len(sorted)/2].Seconds(), sorted[0].Seconds(), sorted[len(sorted)-1].Seconds())
	}
	conn.Call(ctx, "shutdown", nil, nil)
	conn.Notify(ctx, "exit", nil)
	cmd.Wait()
	if os.Getenv("LSPEDIT_LOG") != "" {
		os.Stderr.Write(stderr.Bytes())
	}
	if *check && bad {
		fmt.Fprintln(os.Stderr, "an edit's diagnostics differ from the first publication's")
		os.Exit(1)
	}
}

func loadavg() string {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	return strings.Join(strings.Fields(string(data))[:3], " ")
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "lspedit:", err)
	os.Exit(1)
}
