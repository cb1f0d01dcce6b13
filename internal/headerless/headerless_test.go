package headerless

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func noHeadersCC(t *testing.T) []string { return testenv.NoGPUHeaders(t) }

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
}

// TestInstallIsStable: the directory must be the same from run to run, or
// CGO_CFLAGS changes and the go command redoes cgo for every package.
func TestInstallIsStable(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	first, cleanup, err := Install()
	require.NoError(t, err)
	cleanup()
	second, cleanup, err := Install()
	require.NoError(t, err)
	defer cleanup()
	assert.Equal(t, first, second)
	assert.True(t, strings.HasPrefix(first, os.Getenv("XDG_CACHE_HOME")), first)
	_, err = os.Stat(filepath.Join(first, "hip", "hip_runtime_api.h"))
	require.NoError(t, err, "cleanup leaves the shared directory in place")
}

// TestInstallIgnoresAlteredDirectory: a cached directory whose headers were
// changed is replaced by a temporary one, never used.
func TestInstallIgnoresAlteredDirectory(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	cached, cleanup, err := Install()
	require.NoError(t, err)
	cleanup()
	header := filepath.Join(cached, "hip", "hip_runtime_api.h")
	require.NoError(t, os.WriteFile(header, []byte("#error altered\n"), 0o644))
	dir, cleanup, err := Install()
	require.NoError(t, err)
	assert.NotEqual(t, cached, dir)
	data, err := os.ReadFile(filepath.Join(dir, "hip", "hip_runtime_api.h"))
	require.NoError(t, err)
	assert.NotContains(t, string(data), "#error altered")
	cleanup()
	_, err = os.Stat(dir)
	assert.True(t, os.IsNotExist(err), "cleanup removes a temporary directory")
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

// TestAuto: the environment is left alone where the headers are found, and
// gets hiplint's declarations where they are not.
func TestAuto(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	env := noHeadersCC(t)
	out, cleanup, err := Auto(env)
	require.NoError(t, err)
	defer cleanup()
	assert.Empty(t, Missing(out), "the declarations are found")
	again, cleanup2, err := Auto(out)
	require.NoError(t, err)
	defer cleanup2()
	assert.Equal(t, out, again, "found headers: unchanged")
}
