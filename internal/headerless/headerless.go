// Package headerless lets hiplint lint cgo packages on machines without the
// GPU headers. CI runners rarely have ROCm or CUDA installed, yet cgo must
// preprocess each file's preamble before a package can be type-checked.
//
// When the C compiler cannot find a runtime header, hiplint writes its own
// declarations (the embedded testdata/include) to a directory and adds it to
// CGO_CFLAGS with -idirafter: searched after every other include directory,
// so a real header, wherever it is, still wins.
//
// The directory's path must not change between runs: CGO_CFLAGS is part of
// the go command's cache key for every cgo package, so a fresh temporary
// directory each run would redo cgo for all of them every time (measured:
// 7x slower on a warm cache, docs/performance.md). It is named by a hash of
// the headers, under the user's cache directory.
package headerless

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/hiplint/hiplint"
)

// Names are the headers hiplint can supply, as code includes them.
var Names = []string{"hip/hip_runtime_api.h", "cuda_runtime_api.h", "cuda.h"}

// Missing returns the headers of Names that the C compiler cannot find with
// the given environment (CC and CGO_CFLAGS are honoured).
func Missing(env []string) []string {
	var missing []string
	for _, name := range Names {
		if !found(env, name) {
			missing = append(missing, name)
		}
	}
	return missing
}

func found(env []string, header string) bool {
	cc := lookup(env, "CC")
	if cc == "" {
		cc = "gcc"
	}
	args := append(strings.Fields(lookup(env, "CGO_CFLAGS")), "-E", "-M", "-x", "c", "-")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, cc, args...)
	cmd.Env = env
	// Only whether the file is found matters, not whether it preprocesses on
	// its own: the real HIP header insists on a platform macro that the
	// package's own #cgo CFLAGS provide.
	cmd.Stdin = strings.NewReader(fmt.Sprintf("#if __has_include(<%s>)\n#else\n#error missing\n#endif\n", header))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	return cmd.Run() == nil
}

func lookup(env []string, key string) string {
	for i := len(env) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(env[i], key+"="); ok {
			return v
		}
	}
	return ""
}

// Install returns a directory holding hiplint's headers and a function to
// call when they are no longer needed. The directory is
// <user cache dir>/hiplint/headers-<hash of the headers>, created once and
// reused, so that the go command's cache keys stay the same from one run to
// the next; its cleanup does nothing. Where that directory cannot be used,
// the headers go to a new temporary directory that cleanup removes.
func Install() (dir string, cleanup func(), err error) {
	files, err := headerFiles()
	if err != nil {
		return "", nil, err
	}
	if dir, ok := installCached(files); ok {
		return dir, func() {}, nil
	}
	dir, err = os.MkdirTemp("", "hiplint-headers-")
	if err != nil {
		return "", nil, err
	}
	cleanup = func() { os.RemoveAll(dir) }
	if err := writeFiles(dir, files); err != nil {
		cleanup()
		return "", nil, err
	}
	return dir, cleanup, nil
}

// headerFiles returns the embedded headers by path relative to the include
// directory.
func headerFiles() (map[string][]byte, error) {
	const root = "testdata/include"
	files := map[string][]byte{}
	err := fs.WalkDir(hiplint.Headers, root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := hiplint.Headers.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		files[rel] = data
		return nil
	})
	return files, err
}

// installCached returns the content-addressed directory of files, creating
// it when it does not exist. It reports false when the directory cannot be
// created or holds something else than files.
func installCached(files map[string][]byte) (string, bool) {
	base, err := os.UserCacheDir()
	if err != nil {
		return "", false
	}
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	h := sha256.New()
	for _, name := range names {
		fmt.Fprintf(h, "%s\x00%d\x00", name, len(files[name]))
		h.Write(files[name])
	}
	dir := filepath.Join(base, "hiplint", fmt.Sprintf("headers-%x", h.Sum(nil)[:12]))
	if holds(dir, files) {
		return dir, true
	}
	// Populate a sibling and rename it into place, so that a concurrent
	// hiplint never sees a half-written directory.
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return "", false
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), "tmp-headers-")
	if err != nil {
		return "", false
	}
	defer os.RemoveAll(tmp) // a no-op once renamed
	if err := writeFiles(tmp, files); err != nil {
		return "", false
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		return "", false
	}
	_ = os.Rename(tmp, dir) // fails when another process got there first
	return dir, holds(dir, files)
}

// holds reports whether dir holds exactly files' contents (for the files'
// names), so that a damaged or altered directory is never used.
func holds(dir string, files map[string][]byte) bool {
	for name, want := range files {
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil || !bytes.Equal(got, want) {
			return false
		}
	}
	return true
}

func writeFiles(dir string, files map[string][]byte) error {
	for name, data := range files {
		target := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(target, data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// Env returns env with dir added to CGO_CFLAGS as an -idirafter directory.
func Env(env []string, dir string) []string {
	flags := strings.TrimSpace(lookup(env, "CGO_CFLAGS") + " -idirafter " + dir)
	if lookup(env, "CGO_CFLAGS") == "" {
		// go's default CGO_CFLAGS is "-O2 -g"; keep it when we set the variable.
		flags = "-O2 -g -idirafter " + dir
	}
	out := make([]string, 0, len(env)+1)
	for _, kv := range env {
		if !strings.HasPrefix(kv, "CGO_CFLAGS=") {
			out = append(out, kv)
		}
	}
	return append(out, "CGO_CFLAGS="+flags)
}

// Auto returns env as `hiplint -headers=auto` runs the go command: unchanged
// where the C compiler finds the GPU runtime headers, else with hiplint's
// declarations installed and added (Install, Env). Call cleanup when done.
// The benchmark drivers load packages through it, exactly as hiplint does.
func Auto(env []string) (out []string, cleanup func(), err error) {
	if len(Missing(env)) == 0 {
		return env, func() {}, nil
	}
	dir, cleanup, err := Install()
	if err != nil {
		return nil, nil, err
	}
	return Env(env, dir), cleanup, nil
}
