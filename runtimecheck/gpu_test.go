package runtimecheck

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
)

// TestConfirmOnGPU runs confirm for real on the example module's module
// package. It needs a GPU runtime (CUDA or ROCm) and skips without one.
func TestConfirmOnGPU(t *testing.T) {
	plat, err := detectPlatform(os.Environ(), t.TempDir())
	require.NoError(t, err)
	if plat.Name == "none" {
		t.Skip("no GPU runtime (no ROCm, no CUDA): " + plat.Note)
	}
	if err := exec.Command("nvidia-smi").Run(); plat.Name == "cuda" && err != nil {
		t.Skip("CUDA is installed but nvidia-smi finds no GPU")
	}
	t.Setenv("GOFLAGS", "-mod=mod")
	t.Chdir(gpuModule(t))
	var stdout, stderr bytes.Buffer
	code := Main([]string{"-json", "./modules"}, &stdout, &stderr)
	require.Equal(t, exitConfirmed, code, stderr.String())
	var results []Result
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &results))
	got := map[string]Verdict{}
	for _, r := range results {
		got[r.Finding.Posn] = r.Verdict
	}
	assert.Equal(t, Confirmed, got["modules/modules.go:36:40"])
	assert.Equal(t, Confirmed, got["modules/modules.go:73:3"])
	assert.Equal(t, NotExercised, got["modules/modules.go:84:36"])
}
