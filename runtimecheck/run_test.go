package runtimecheck

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
)

// TestTimeoutKillsTheProcessGroup: a child that outlives its parent's kill
// (the test binary under go test) must die with the group and be reaped.
func TestTimeoutKillsTheProcessGroup(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pid")
	res := runProcess(context.Background(), runSpec{
		Args:    []string{"sh", "-c", "sleep 60 & echo $! > " + pidFile + "; wait"},
		Env:     os.Environ(),
		Timeout: 500 * time.Millisecond,
	})
	assert.True(t, res.TimedOut)
	assert.Less(t, res.Duration, 10*time.Second)
	data, err := os.ReadFile(pidFile)
	require.NoError(t, err)
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	require.NoError(t, err)
	assert.ErrorIs(t, syscall.Kill(pid, 0), syscall.ESRCH, "the grandchild must be gone, not even a zombie")
}

func TestCrashSignalIsEvidence(t *testing.T) {
	res := runProcess(context.Background(), runSpec{Args: []string{"sh", "-c", "kill -SEGV $$"}, Env: os.Environ(), Timeout: 10 * time.Second})
	assert.Nil(t, res.Err)
	assert.Equal(t, "segmentation fault", res.Signal)
	run := &Run{Test: "TestX", Exit: res.Exit, Signal: res.Signal}
	assert.Equal(t, "killed by segmentation fault", run.Outcome())
}
