// Package testenv holds environments that hiplint's tests share.
package testenv

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"sync"
	"testing"
)

// NoGPUHeaders returns an environment whose C compiler sees the system's
// headers except the GPU runtimes': a machine without ROCm or CUDA, even
// where this one has them. The compiler (CC) is a script that runs gcc with
// a sysroot that mirrors / with the runtime headers left out. It skips the
// test when gcc is missing.
//
// Every test gets the same script, at a path that depends only on what it
// mirrors (gcc's path and the entries of /usr/include): the go command keys
// cgo's output in its build cache on CC's path, so a script of the test's own
// made every test, and every run, run cgo again for runtime/cgo and each
// package it loads. The mirror lives in the user cache directory
// (hiplint-test/nogpu-HASH), is made once, atomically, and never changes:
// concurrent test binaries share it.
func NoGPUHeaders(t testing.TB) []string {
	t.Helper()
	gcc, err := exec.LookPath("gcc")
	if err != nil {
		t.Skip("gcc not installed: cgo cannot run")
	}
	mirror.once.Do(func() { mirror.root, mirror.err = makeMirror(gcc) })
	if mirror.err != nil {
		t.Fatalf("making the sysroot without GPU headers: %v", mirror.err)
	}
	return append(os.Environ(), "CC="+filepath.Join(mirror.root, "cc"), "CGO_ENABLED=1")
}

var mirror struct {
	once sync.Once
	root string
	err  error
}

// gpuHeaders are the entries of /usr/include the mirror leaves out.
var gpuHeaders = map[string]bool{"hip": true, "cuda.h": true, "cuda_runtime_api.h": true, "cuda_runtime.h": true}

// libDirs are linked into the mirror whole, where the machine has them.
var libDirs = []string{"lib", "lib64", "usr/lib", "usr/lib64", "usr/local"}

// makeMirror returns the directory of the sysroot for gcc, making it if no
// test binary has yet.
func makeMirror(gcc string) (string, error) {
	entries, err := os.ReadDir("/usr/include")
	if err != nil {
		return "", err
	}
	var names []string
	for _, e := range entries {
		if !gpuHeaders[e.Name()] {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	var dirs []string
	for _, d := range libDirs {
		if _, err := os.Stat("/" + d); err == nil {
			dirs = append(dirs, d)
		}
	}
	h := sha256.New()
	fmt.Fprintf(h, "nogpu v1\ngcc %s\n", gcc)
	for _, n := range names {
		fmt.Fprintf(h, "include %s\n", n)
	}
	for _, d := range dirs {
		fmt.Fprintf(h, "lib %s\n", d)
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	parent := filepath.Join(cache, "hiplint-test")
	root := filepath.Join(parent, "nogpu-"+hex.EncodeToString(h.Sum(nil))[:16])
	if _, err := os.Stat(filepath.Join(root, "cc")); err == nil {
		return root, nil
	}
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return "", err
	}
	// Made under a temporary name and renamed into place: a test binary
	// that finds root finds it whole.
	tmp, err := os.MkdirTemp(parent, "nogpu-tmp-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp) // after a successful rename, nothing is there
	inc := filepath.Join(tmp, "usr", "include")
	if err := os.MkdirAll(inc, 0o755); err != nil {
		return "", err
	}
	for _, n := range names {
		if err := os.Symlink(filepath.Join("/usr/include", n), filepath.Join(inc, n)); err != nil {
			return "", err
		}
	}
	for _, d := range dirs {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(tmp, d)), 0o755); err != nil {
			return "", err
		}
		if err := os.Symlink("/"+d, filepath.Join(tmp, d)); err != nil {
			return "", err
		}
	}
	script := "#!/bin/sh\nexec " + gcc + " --sysroot=" + root + " \"$@\"\n"
	if err := os.WriteFile(filepath.Join(tmp, "cc"), []byte(script), 0o755); err != nil {
		return "", err
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		return "", err
	}
	if err := os.Rename(tmp, root); err != nil {
		// Another test binary renamed its own first: the same content.
		if _, statErr := os.Stat(filepath.Join(root, "cc")); statErr == nil {
			return root, nil
		}
		return "", err
	}
	return root, nil
}
