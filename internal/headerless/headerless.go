// Package headerless lets hiplint lint cgo packages on machines without the
// GPU headers. CI runners rarely have ROCm or CUDA installed, yet cgo must
// preprocess each file's preamble before a package can be type-checked.
//
// When the C compiler cannot find a runtime header, hiplint writes its own
// declarations (the embedded testdata/include) to a temporary directory and
// adds it to CGO_CFLAGS with -idirafter: searched after every other include
// directory, so a real header, wherever it is, still wins.
package headerless

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
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

// Install writes hiplint's headers to a new temporary directory and returns
// it with a function that removes it.
func Install() (dir string, cleanup func(), err error) {
	dir, err = os.MkdirTemp("", "hiplint-headers-")
	if err != nil {
		return "", nil, err
	}
	cleanup = func() { os.RemoveAll(dir) }
	const root = "testdata/include"
	err = fs.WalkDir(hiplint.Headers, root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		target := filepath.Join(dir, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := hiplint.Headers.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
	if err != nil {
		cleanup()
		return "", nil, err
	}
	return dir, cleanup, nil
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
