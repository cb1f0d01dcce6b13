package runtimecheck

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hiplint/hiplint/internal/testenv"
	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
)

// readPid waits for a command of the test to write its pid to file.
func readPid(t *testing.T, file string) int {
	t.Helper()
	for i := 0; i < 30000; i++ { // a bound (five minutes), not a timing
		if data, err := os.ReadFile(file); err == nil && strings.HasSuffix(string(data), "\n") {
			pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
			require.NoError(t, err)
			return pid
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("%s never written", file)
	return 0
}

// gone reports whether pid has ended: no such process, or a zombie a
// parent other than this process has to reap.
func gone(pid int) bool {
	if errors.Is(syscall.Kill(pid, 0), syscall.ESRCH) {
		return true
	}
	p, ok := readProc(pid)
	return !ok || p.state == 'Z' && p.ppid != os.Getpid()
}

// TestTimeoutKillsSetsidChild: a child that starts its own session leaves
// the process group; at the timeout it must die all the same, and be reaped
// (issue 16, item 5).
func TestTimeoutKillsSetsidChild(t *testing.T) {
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("no setsid command")
	}
	pidFile := filepath.Join(t.TempDir(), "pid")
	res := runProcess(context.Background(), runSpec{
		Args:    []string{"sh", "-c", "setsid sleep 60 & echo $! > " + pidFile + "; wait"},
		Env:     os.Environ(),
		Timeout: 500 * time.Millisecond,
	})
	assert.True(t, res.TimedOut)
	pid := readPid(t, pidFile)
	assert.ErrorIs(t, syscall.Kill(pid, 0), syscall.ESRCH, "the child in its own session must be gone, not even a zombie")
}

// TestExitKillsDaemon: a process that double-forks into a session of its
// own and outlives the run's normal exit is killed and reaped when the run
// ends.
func TestExitKillsDaemon(t *testing.T) {
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("no setsid command")
	}
	pidFile := filepath.Join(t.TempDir(), "pid")
	res := runProcess(context.Background(), runSpec{
		// setsid -f forks: the sleep's parent is setsid's child, which exits.
		Args: []string{"sh", "-c", "setsid -f sh -c 'echo $$ > " + pidFile + "; exec sleep 60'; " +
			"until [ -s " + pidFile + " ]; do sleep 0.01; done; exit 0"},
		Env:     os.Environ(),
		Timeout: time.Minute,
	})
	require.False(t, res.TimedOut)
	require.NoError(t, res.Err)
	pid := readPid(t, pidFile)
	assert.ErrorIs(t, syscall.Kill(pid, 0), syscall.ESRCH, "the daemon must be gone, not even a zombie")
}

// TestCancelledRunStartsNothing: once confirm is interrupted, no test
// process is started.
func TestCancelledRunStartsNothing(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	marker := filepath.Join(t.TempDir(), "ran")
	res := runProcess(ctx, runSpec{Args: []string{"sh", "-c", "touch " + marker}, Env: os.Environ(), Timeout: time.Minute})
	assert.ErrorIs(t, res.Err, context.Canceled)
	_, err := os.Stat(marker)
	assert.True(t, os.IsNotExist(err), "nothing ran")
}

// The helper process of TestSignalStopsConfirm: confirm on the GPU example
// with a go command that never finishes.
func TestMain(m *testing.M) {
	if os.Getenv("HIPLINT_CONFIRM_SIGNAL_HELPER") == "1" {
		os.Exit(Main([]string{"-timeout", "10m", "./modules"}, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// TestSignalStopsConfirm sends SIGTERM, then SIGINT (by default SIGINT
// alone: below), to a confirm whose
// test process hangs (with a child in a session of its own): confirm must
// kill them, remove its temporary directory and exit 143 or 130 (issue 16,
// item 4). TestEveryStopSignal: the other stop signals take the same path.
func TestSignalStopsConfirm(t *testing.T) {
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("no setsid command")
	}
	// Each signal is a helper process that loads the GPU module for confirm
	// (about 10 s of CPU). The default run (testenv.Sample) sends SIGINT,
	// the user's Ctrl-C; both take the same path (TestEveryStopSignal, in
	// every run, checks each stop signal's exit status), and
	// HIPLINT_LONGTESTS=1 sends SIGTERM too.
	sigs := testenv.Sample(t, []syscall.Signal{syscall.SIGTERM, syscall.SIGINT}, syscall.Signal.String, syscall.SIGINT.String())
	for _, sig := range sigs {
		t.Run(sig.String(), func(t *testing.T) {
			tmp, pids := t.TempDir(), t.TempDir()
			fake := filepath.Join(t.TempDir(), "go")
			require.NoError(t, os.WriteFile(fake, []byte("#!/bin/sh\n"+
				"setsid sleep 300 & echo $! > "+pids+"/daemon.tmp; mv "+pids+"/daemon.tmp "+pids+"/daemon\n"+
				"echo $$ > "+pids+"/go.tmp; mv "+pids+"/go.tmp "+pids+"/go\n"+
				"exec sleep 300\n"), 0o755))
			cmd := exec.Command(os.Args[0], "-test.run=^$")
			cmd.Dir = gpuModule(t)
			cmd.Env = append(fixtureEnv(t), "HIPLINT_CONFIRM_SIGNAL_HELPER=1", "HIPLINT_GO="+fake, "TMPDIR="+tmp)
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			require.NoError(t, cmd.Start())
			goPid := readPid(t, filepath.Join(pids, "go"))
			daemon := readPid(t, filepath.Join(pids, "daemon"))
			require.NoError(t, cmd.Process.Signal(sig))
			err := cmd.Wait()
			t.Logf("confirm: %v\n%s", err, out.String())
			assert.Equal(t, 128+int(sig), cmd.ProcessState.ExitCode())
			assert.True(t, gone(goPid), "the test process must be killed")
			assert.True(t, gone(daemon), "its child in a session of its own must be killed")
			entries, err := os.ReadDir(tmp)
			require.NoError(t, err)
			var left []string
			for _, e := range entries {
				left = append(left, e.Name())
			}
			assert.Empty(t, left, "the temporary directory must be removed")
		})
	}
}

// TestLoadErrorExitsOne: a package that fails to load or type-check is an
// error, exit status 1, as documented (issue 16, item 6).
func TestLoadErrorExitsOne(t *testing.T) {
	mod := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(mod, "go.mod"), []byte("module example.com/bad\n\ngo 1.26\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(mod, "bad.go"), []byte("package bad\n\nfunc F() { undefinedFunction() }\n"), 0o644))
	for _, kv := range fixtureEnv(t) {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
	t.Setenv("TMPDIR", t.TempDir())
	t.Chdir(mod)
	var stdout, stderr bytes.Buffer
	code := Main([]string{"./..."}, &stdout, &stderr)
	t.Logf("stdout:\n%s\nstderr:\n%s", stdout.String(), stderr.String())
	assert.Equal(t, exitError, code)
	assert.Contains(t, stderr.String(), "undefinedFunction")
}

// TestEveryStopSignal: SIGHUP and SIGQUIT (a closed terminal, Ctrl-\\) stop
// confirm as SIGINT and SIGTERM do: the runs are cancelled and the status
// is 128 plus the signal's number (issue 29, item 4: only SIGINT and
// SIGTERM were caught, so SIGHUP left the test processes and the temporary
// directory, and SIGQUIT dumped goroutines).
func TestEveryStopSignal(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGHUP, syscall.SIGQUIT, syscall.SIGINT, syscall.SIGTERM} {
		var stderr bytes.Buffer
		in := catchInterrupts(&stderr)
		require.NoError(t, syscall.Kill(os.Getpid(), sig))
		select {
		case <-in.ctx.Done():
		case <-time.After(time.Minute): // a bound, not a timing
			t.Fatalf("%v did not stop confirm", sig)
		}
		code, stopped := in.stop()
		assert.True(t, stopped, "%v", sig)
		assert.Equal(t, 128+int(sig), code, "%v", sig)
		assert.Contains(t, stderr.String(), "stopping the runs in progress", "%v", sig)
	}
}
