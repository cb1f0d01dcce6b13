package headerless

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// noHeadersCC returns an environment whose C compiler sees the system's
// headers except the GPU runtimes': a machine without ROCm or CUDA, even
// where this one has them. The compiler gets a sysroot that mirrors / with
// the runtime headers left out.
func noHeadersCC(t *testing.T) []string {
	t.Helper()
	gcc, err := exec.LookPath("gcc")
	if err != nil {
		t.Skip("gcc not installed: cgo cannot run")
	}
	root := t.TempDir()
	inc := filepath.Join(root, "usr", "include")
	require.NoError(t, os.MkdirAll(inc, 0o755))
	entries, err := os.ReadDir("/usr/include")
	require.NoError(t, err)
	for _, e := range entries {
		switch e.Name() {
		case "hip", "cuda.h", "cuda_runtime_api.h":
			continue
		}
		require.NoError(t, os.Symlink(filepath.Join("/usr/include", e.Name()), filepath.Join(inc, e.Name())))
	}
	for _, d := range []string{"lib", "lib64", "usr/lib", "usr/lib64", "usr/local"} {
		if _, err := os.Stat("/" + d); err == nil {
			require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(root, d)), 0o755))
			require.NoError(t, os.Symlink("/"+d, filepath.Join(root, d)))
		}
	}
	script := filepath.Join(root, "cc")
	require.NoError(t, os.WriteFile(script, []byte("#!/bin/sh\nexec "+gcc+" --sysroot="+root+" \"$@\"\n"), 0o755))
	return append(os.Environ(), "CC="+script, "CGO_ENABLED=1")
}

func TestMissingWithoutHeaders(t *testing.T) {
	env := noHeadersCC(t)
	assert.ElementsMatch(t, Names, Missing(env))
}

func TestFoundHonoursCGOCFLAGS(t *testing.T) {
	env := noHeadersCC(t)
	dir, cleanup, err := Install()
	require.NoError(t, err)
	defer cleanup()
	assert.Empty(t, Missing(Env(env, dir)), "the installed headers are found through -idirafter")
	_, err = os.Stat(dir)
	require.NoError(t, err)
	cleanup()
	_, err = os.Stat(dir)
	assert.True(t, os.IsNotExist(err), "cleanup removes the directory")
}

func TestEnvKeepsUserFlags(t *testing.T) {
	env := Env([]string{"PATH=/bin", "CGO_CFLAGS=-O1 -DX=1"}, "/tmp/h")
	assert.Contains(t, env, "CGO_CFLAGS=-O1 -DX=1 -idirafter /tmp/h")
	assert.Contains(t, env, "PATH=/bin")
	env = Env([]string{"PATH=/bin"}, "/tmp/h")
	assert.Contains(t, env, "CGO_CFLAGS=-O2 -g -idirafter /tmp/h")
}

// TestCgoBuildsHeaderless runs cgo (go list -compiled) on a package that
// includes the runtime headers, with no headers on the machine: it fails
// without hiplint's directory and succeeds with it.
func TestCgoBuildsHeaderless(t *testing.T) {
	env := noHeadersCC(t)
	list := func(env []string) (string, error) {
		cmd := exec.Command("go", "list", "-compiled", "-e", "-f", "{{if .Error}}{{.Error}}{{end}}{{range .CompiledGoFiles}}{{.}} {{end}}", ".")
		cmd.Dir = filepath.Join("testdata", "hipcode")
		cmd.Env = append(env, "GOFLAGS=-mod=mod")
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	out, _ := list(env)
	assert.Contains(t, out, "hip_runtime_api.h", "without headers cgo must fail on the include")

	dir, cleanup, err := Install()
	require.NoError(t, err)
	defer cleanup()
	out, err = list(Env(env, dir))
	require.NoError(t, err, out)
	assert.Len(t, strings.Fields(out), 2, "cgo produced the compiled files (the cgo1 file and _cgo_gotypes.go): %s", out)
	assert.NotContains(t, out, "No such file")
}
