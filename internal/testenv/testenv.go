// Package testenv holds environments that hiplint's tests share.
package testenv

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// NoGPUHeaders returns an environment whose C compiler sees the system's
// headers except the GPU runtimes': a machine without ROCm or CUDA, even
// where this one has them. The compiler gets a sysroot that mirrors / with
// the runtime headers left out. It skips the test when gcc is missing.
func NoGPUHeaders(t testing.TB) []string {
	t.Helper()
	gcc, err := exec.LookPath("gcc")
	if err != nil {
		t.Skip("gcc not installed: cgo cannot run")
	}
	root := t.TempDir()
	inc := filepath.Join(root, "usr", "include")
	must(t, os.MkdirAll(inc, 0o755))
	entries, err := os.ReadDir("/usr/include")
	must(t, err)
	for _, e := range entries {
		switch e.Name() {
		case "hip", "cuda.h", "cuda_runtime_api.h", "cuda_runtime.h":
			continue
		}
		must(t, os.Symlink(filepath.Join("/usr/include", e.Name()), filepath.Join(inc, e.Name())))
	}
	for _, d := range []string{"lib", "lib64", "usr/lib", "usr/lib64", "usr/local"} {
		if _, err := os.Stat("/" + d); err == nil {
			must(t, os.MkdirAll(filepath.Dir(filepath.Join(root, d)), 0o755))
			must(t, os.Symlink("/"+d, filepath.Join(root, d)))
		}
	}
	script := filepath.Join(root, "cc")
	must(t, os.WriteFile(script, []byte("#!/bin/sh\nexec "+gcc+" --sysroot="+root+" \"$@\"\n"), 0o755))
	return append(os.Environ(), "CC="+script, "CGO_ENABLED=1")
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
