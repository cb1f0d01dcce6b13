package headerless

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
)

// TestPinnedReachesNoOtherHeader: hiplint's headers included by absolute
// path from the pinned copy never reach a runtime header of the include
// directories, even one searched first (-I): the machine's real header
// must not mix with hiplint's when a package is served hiplint's. Each
// shipped header is preprocessed alone with a directory of #error headers
// of every shipped name in front.
func TestPinnedReachesNoOtherHeader(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	dir, cleanup, err := Pinned()
	require.NoError(t, err)
	defer cleanup()
	again, cleanup2, err := Pinned()
	require.NoError(t, err)
	defer cleanup2()
	assert.Equal(t, dir, again, "content-addressed: the same path from run to run")
	assert.True(t, strings.HasPrefix(dir, os.Getenv("XDG_CACHE_HOME")), dir)

	files, err := headerFiles()
	require.NoError(t, err)
	fake := t.TempDir()
	for name := range files {
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(fake, name)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(fake, name), []byte("#error the machine's header was reached\n"), 0o644))
	}
	cc := "cc"
	if _, err := exec.LookPath(cc); err != nil {
		t.Skip("no C compiler")
	}
	for _, name := range []string{"hip/hip_runtime.h", "hip/hip_runtime_api.h", "hip/hip_ext.h", "cuda.h", "cuda_runtime.h", "cuda_runtime_api.h"} {
		src := `#include "` + filepath.Join(dir, name) + `"` + "\n"
		cmd := exec.Command(cc, "-I", fake, "-fsyntax-only", "-x", "c", "-")
		cmd.Stdin = strings.NewReader(src)
		out, err := cmd.CombinedOutput()
		assert.NoError(t, err, "%s: %s", name, out)
		assert.NotContains(t, string(out), "was reached", name)
	}
	// The plain installed copy, by contrast, does reach them.
	plain, cleanup3, err := Install()
	require.NoError(t, err)
	defer cleanup3()
	cmd := exec.Command(cc, "-I", fake, "-fsyntax-only", "-x", "c", "-")
	cmd.Stdin = strings.NewReader(`#include "` + filepath.Join(plain, "hip/hip_runtime.h") + `"` + "\n")
	out, _ := cmd.CombinedOutput()
	assert.Contains(t, string(out), "was reached", "the test's fake headers are reachable by angle includes")
}

func TestDeclares(t *testing.T) {
	for _, name := range []string{"hipMemAllocNodeParams", "hipGraphAddMemFreeNode", "cuMemAlloc", "cudaMalloc", "hipMemLocationTypeDevice"} {
		assert.True(t, Declares(name), name)
	}
	for _, name := range []string{"cublasCreate", "hipNoSuchFunction", "hiplint_not_a_name"} {
		assert.False(t, Declares(name), name)
	}
}
