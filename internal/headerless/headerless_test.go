package headerless

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hiplint/hiplint/internal/testenv"
	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
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
// TestInstallRepairsADamagedEntry: a cache entry of ours whose files were
// altered, removed or added to is written anew in place (it used to be
// skipped for a fresh temporary directory on every later run, issue 29
// item 6), and the altered header is never used.
func TestInstallRepairsADamagedEntry(t *testing.T) {
	for _, damage := range []func(t *testing.T, dir string){
		func(t *testing.T, dir string) {
			require.NoError(t, os.WriteFile(filepath.Join(dir, "hip", "hip_runtime_api.h"), []byte("#error altered\n"), 0o600))
		},
		func(t *testing.T, dir string) { require.NoError(t, os.Remove(filepath.Join(dir, "cuda.h"))) },
		func(t *testing.T, dir string) {
			require.NoError(t, os.WriteFile(filepath.Join(dir, "extra.h"), nil, 0o600))
		},
	} {
		t.Setenv("XDG_CACHE_HOME", t.TempDir())
		cached, cleanup, err := Install()
		require.NoError(t, err)
		cleanup()
		damage(t, cached)
		dir, cleanup, err := Install()
		require.NoError(t, err)
		assert.Equal(t, cached, dir, "the entry is repaired, not replaced by a temporary directory")
		data, err := os.ReadFile(filepath.Join(dir, "hip", "hip_runtime_api.h"))
		require.NoError(t, err)
		assert.NotContains(t, string(data), "#error altered")
		files, err := headerFiles()
		require.NoError(t, err)
		assert.NoError(t, holds(dir, files))
		cleanup()
		_, err = os.Stat(dir)
		assert.NoError(t, err, "cleanup leaves the cache entry")
		leftovers, _ := filepath.Glob(filepath.Join(filepath.Dir(dir), "tmp-headers-*"))
		assert.Empty(t, leftovers)
	}
}

// TestInstallRemovesStaleTemporaries: the tmp-headers-* directories that
// killed runs left behind are removed once they are older than staleAfter;
// a young one (a live run's) is left alone.
func TestInstallRemovesStaleTemporaries(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	cached, cleanup, err := Install()
	require.NoError(t, err)
	cleanup()
	top := filepath.Dir(cached)
	old, young := filepath.Join(top, "tmp-headers-123"), filepath.Join(top, "tmp-headers-456")
	for _, d := range []string{old, young} {
		require.NoError(t, os.MkdirAll(filepath.Join(d, "hip"), 0o700))
		require.NoError(t, os.WriteFile(filepath.Join(d, "hip", "x.h"), nil, 0o600))
	}
	past := time.Now().Add(-2 * staleAfter)
	require.NoError(t, os.Chtimes(old, past, past))
	_, cleanup, err = Install()
	require.NoError(t, err)
	cleanup()
	_, err = os.Stat(old)
	assert.True(t, os.IsNotExist(err), "a stale leftover is removed")
	_, err = os.Stat(young)
	assert.NoError(t, err, "a live run's directory is left alone")
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

// goList runs cgo (go list -compiled) on testdata/hipcode with env and a
// fresh build cache: the go command does not key cgo's output on the
// headers' contents, so a shared cache could answer for another run.
func goList(t *testing.T, env []string) (string, error) {
	t.Helper()
	cmd := exec.Command("go", "list", "-compiled", "-e", "-f", "{{if .Error}}{{.Error}}{{end}}{{range .CompiledGoFiles}}{{.}} {{end}}", ".")
	cmd.Dir = filepath.Join("testdata", "hipcode")
	cmd.Env = append(env, "GOFLAGS=-mod=mod", "GOCACHE="+t.TempDir())
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// TestCacheDirWithSpace: a user cache directory with a space in its path
// must reach the C compiler as one argument (issue 16, item 3).
func TestCacheDirWithSpace(t *testing.T) {
	env := noHeadersCC(t)
	cache := filepath.Join(t.TempDir(), "cache dir")
	t.Setenv("XDG_CACHE_HOME", cache)
	dir, cleanup, err := Install()
	require.NoError(t, err)
	defer cleanup()
	require.True(t, strings.HasPrefix(dir, cache), "the cache is used: %s", dir)
	env = Env(env, dir)
	assert.Empty(t, Missing(env), "the headers are found through the quoted path")
	out, err := goList(t, env)
	require.NoError(t, err, out)
	assert.Len(t, strings.Fields(out), 2, "cgo ran: %s", out)
}

func TestQuoteField(t *testing.T) {
	for _, s := range []string{"/plain", "/a b", "/it's here", `/say "hi" now`, "'quoted", `"dq`, "tab\there"} {
		q, ok := quoteField(s)
		require.True(t, ok, s)
		assert.Equal(t, []string{"-O2", "-idirafter", s, "-g"}, splitFields("-O2 -idirafter "+q+" -g"), "%s as %s", s, q)
	}
	_, ok := quoteField(`/both ' and "`)
	assert.False(t, ok)
	assert.Equal(t, []string{"a", "b c", "d"}, splitFields(" a\t'b c'  d "))
}

// captureNotes collects the notes Install prints.
func captureNotes(t *testing.T) *[]string {
	var notes []string
	old := notef
	notef = func(format string, args ...any) { notes = append(notes, fmt.Sprintf(format, args...)) }
	t.Cleanup(func() { notef = old })
	return &notes
}

// populatedElsewhere returns a copy of the cache's header directory made in
// another user's cache (a valid one: same name, same contents), and the name
// the directory has under hiplint/.
func populatedElsewhere(t *testing.T) (root, name string) {
	other := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", other)
	dir, err := Dir()
	require.NoError(t, err)
	return filepath.Join(other, "hiplint"), filepath.Base(dir)
}

// refused checks that Install did not use anything under foreign, said so,
// and that Dir fails.
func refused(t *testing.T, foreign, why string) {
	t.Helper()
	notes := captureNotes(t)
	dir, cleanup, err := Install()
	require.NoError(t, err)
	defer cleanup()
	assert.False(t, strings.HasPrefix(dir, foreign), "another user's directory must not be used: %s", dir)
	assert.NotContains(t, dir, os.Getenv("XDG_CACHE_HOME"))
	fi, err := os.Stat(dir)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o700), fi.Mode().Perm(), "the fallback is private")
	require.Len(t, *notes, 1)
	assert.Contains(t, (*notes)[0], why)
	_, err = Dir()
	assert.ErrorContains(t, err, why)
}

// TestCacheRefusesSymlink: a symbolic link planted where hiplint's cache
// directory goes (a shared cache directory) is never followed (issue 16,
// item 12).
func TestCacheRefusesSymlink(t *testing.T) {
	foreign, _ := populatedElsewhere(t)
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache)
	require.NoError(t, os.Symlink(foreign, filepath.Join(cache, "hiplint")))
	refused(t, foreign, "is a symbolic link")

	// One level down: the header directory itself a link.
	cache = t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache)
	require.NoError(t, os.Mkdir(filepath.Join(cache, "hiplint"), 0o700))
	foreign, name := populatedElsewhere(t)
	t.Setenv("XDG_CACHE_HOME", cache)
	require.NoError(t, os.Symlink(filepath.Join(foreign, name), filepath.Join(cache, "hiplint", name)))
	refused(t, foreign, "is a symbolic link")
}

// TestCacheRefusesWritableByOthers: a directory or header others can write
// to is not used.
func TestCacheRefusesWritableByOthers(t *testing.T) {
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache)
	top := filepath.Join(cache, "hiplint")
	require.NoError(t, os.Mkdir(top, 0o700))
	require.NoError(t, os.Chmod(top, 0o777))
	refused(t, top, "writable by other users")

	require.NoError(t, os.Chmod(top, 0o700))
	dir, err := Dir()
	require.NoError(t, err, "a private directory is used")
	header := filepath.Join(dir, "hip", "hip_runtime_api.h")
	require.NoError(t, os.Chmod(header, 0o666))
	refused(t, top, "writable by other users")

	// The cache directory itself, writable by all without the sticky bit.
	require.NoError(t, os.Chmod(header, 0o600))
	require.NoError(t, os.Chmod(cache, 0o777))
	refused(t, top, "writable by other users")
	require.NoError(t, os.Chmod(cache, 0o777|os.ModeSticky))
	_, err = Dir()
	assert.NoError(t, err, "a sticky shared directory (as /tmp) is fine")
}

// TestCacheRefusesOtherOwner: a directory or header of another user is not
// used.
func TestCacheRefusesOtherOwner(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("giving a file to another user needs root")
	}
	const nobody = 65534
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache)
	top := filepath.Join(cache, "hiplint")
	require.NoError(t, os.Mkdir(top, 0o700))
	require.NoError(t, os.Chown(top, nobody, nobody))
	refused(t, top, "owned by another user")

	require.NoError(t, os.Chown(top, 0, 0))
	dir, err := Dir()
	require.NoError(t, err)
	require.NoError(t, os.Chown(filepath.Join(dir, "cuda.h"), nobody, nobody))
	refused(t, top, "owned by another user")
}

// TestCacheCreatedPrivately: the directories hiplint creates are its user's
// alone.
func TestCacheCreatedPrivately(t *testing.T) {
	cache := filepath.Join(t.TempDir(), "new")
	t.Setenv("XDG_CACHE_HOME", cache)
	dir, err := Dir()
	require.NoError(t, err)
	for _, d := range []string{cache, filepath.Join(cache, "hiplint"), dir} {
		fi, err := os.Lstat(d)
		require.NoError(t, err)
		assert.Equal(t, os.FileMode(0o700), fi.Mode().Perm(), d)
	}
}

// TestOverrideBeatsInstalledHeaders: with Override, hiplint's declarations
// are used even where the compiler finds other headers first (here a broken
// "installed" header on CGO_CFLAGS's -I path).
func TestOverrideBeatsInstalledHeaders(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	fake := t.TempDir()
	for _, name := range Names {
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(fake, name)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(fake, name), []byte("#error fake installed header\n"), 0o644))
	}
	env := append(noHeadersCC(t), "CGO_CFLAGS=-I"+fake)
	out, _ := goList(t, env)
	require.Contains(t, out, "fake installed header", "the installed header is used by default")

	dir, cleanup, err := Install()
	require.NoError(t, err)
	defer cleanup()
	out, _ = goList(t, Env(env, dir))
	assert.Contains(t, out, "fake installed header", "-idirafter is a fallback: the installed header still wins")
	out, err = goList(t, Override(env, dir))
	require.NoError(t, err, out)
	assert.NotContains(t, out, "fake installed header")
	assert.Len(t, strings.Fields(out), 2, "cgo ran: %s", out)
}

// TestMissingNamesEachHeader: one preprocessor run tells the headers apart,
// so a machine with only the CUDA driver header misses the other four.
func TestMissingNamesEachHeader(t *testing.T) {
	env := testenv.NoGPUHeaders(t)
	only := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(only, "cuda.h"), []byte("/* */\n"), 0o644))
	env = append(env, "CGO_CFLAGS=-I"+only)
	assert.Equal(t, []string{"hip/hip_runtime.h", "hip/hip_runtime_api.h", "cuda_runtime.h", "cuda_runtime_api.h"}, Missing(env))
	assert.Equal(t, Names, Missing(append(env, "CC=/nonexistent/cc")), "no compiler: nothing is found")
}

// TestInstallGenerated: a generated header lands in a directory named by its
// contents, so the same contents get the same path from run to run (the go
// command's cache keys stay), other contents another; a directory altered
// since is not used; Ships knows hiplint's headers.
func TestInstallGenerated(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	a, cleanup, err := InstallGenerated("hiplint_synth.h", []byte("typedef int x;\n"))
	require.NoError(t, err)
	cleanup()
	data, err := os.ReadFile(a)
	require.NoError(t, err)
	assert.Equal(t, "typedef int x;\n", string(data))
	again, _, err := InstallGenerated("hiplint_synth.h", []byte("typedef int x;\n"))
	require.NoError(t, err)
	assert.Equal(t, a, again)
	other, _, err := InstallGenerated("hiplint_synth.h", []byte("typedef int y;\n"))
	require.NoError(t, err)
	assert.NotEqual(t, filepath.Dir(a), filepath.Dir(other))

	require.NoError(t, os.WriteFile(a, []byte("typedef char x;\n"), 0o600))
	altered, cleanup, err := InstallGenerated("hiplint_synth.h", []byte("typedef int x;\n"))
	require.NoError(t, err)
	defer cleanup()
	// The altered entry is written anew (a damaged entry of ours is
	// repaired, TestInstallRepairsADamagedEntry): never used as it is.
	data, err = os.ReadFile(altered)
	require.NoError(t, err)
	assert.Equal(t, "typedef int x;\n", string(data))

	assert.True(t, Ships("cuda.h"))
	assert.True(t, Ships("hip/hip_runtime.h"))
	assert.False(t, Ships("cublas_v2.h"))
	assert.False(t, Ships("../go.mod"))
}
