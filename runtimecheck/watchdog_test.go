package runtimecheck

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
)

// watchdogBinary compiles a stand-in for an instrumented test binary: the
// watchdog of csrc/watchdog.c (as the generated hiplint_trace.c has it) and
// a main that writes its pid to the file named by its first argument, then
// a child's pid (a process the "test" started in its group) to the second,
// and sleeps.
func watchdogBinary(t *testing.T) string {
	t.Helper()
	cc, err := exec.LookPath("gcc")
	if err != nil {
		t.Skip("no C compiler")
	}
	dir := t.TempDir()
	src := "#define _GNU_SOURCE 1\n#include <stdio.h>\n#include <stdlib.h>\n#include <stdint.h>\n#include <unistd.h>\n#include <fcntl.h>\n#include <pthread.h>\n" +
		"#define HL_WEAK __attribute__((weak))\n" + mustRead("csrc/watchdog.c") + `
static void put(const char* path, int pid) {
  char tmp[4096];
  snprintf(tmp, sizeof tmp, "%s.tmp", path);
  FILE* f = fopen(tmp, "w");
  fprintf(f, "%d\n", pid);
  fclose(f);
  rename(tmp, path);
}
int main(int argc, char** argv) {
  int child = fork();
  if (child == 0) { for (;;) pause(); }
  put(argv[2], child);
  put(argv[1], getpid());
  for (;;) pause();
}
`
	require.NoError(t, os.WriteFile(filepath.Join(dir, "w.c"), []byte(src), 0o644))
	bin := filepath.Join(dir, "w.test")
	out, err := exec.Command(cc, "-Wall", "-Werror", "-pthread", "-o", bin, filepath.Join(dir, "w.c")).CombinedOutput()
	require.NoError(t, err, "%s", out)
	return bin
}

// waitGone waits (a bound, not a timing) for pid to end. A zombie that
// became this process's child is reaped: once a test here ran a process,
// this process is a subreaper (becomeSubreaper), and the orphans of a
// killed process come to it.
func waitGone(pid int) bool {
	for i := 0; i < 1000; i++ {
		if p, ok := readProc(pid); ok && p.state == 'Z' && p.ppid == os.Getpid() {
			var ws syscall.WaitStatus
			_, _ = syscall.Wait4(pid, &ws, syscall.WNOHANG, nil)
		}
		if gone(pid) {
			return true
		}
		time.Sleep(10 * time.Millisecond)
	}
	return false
}

// TestWatchdogKillsTheGroup: when the write end of the watch pipe closes
// (confirm died), the instrumented process kills its process group, its
// children included, although its own parent is alive.
func TestWatchdogKillsTheGroup(t *testing.T) {
	bin := watchdogBinary(t)
	pids := t.TempDir()
	r, w, err := os.Pipe()
	require.NoError(t, err)
	cmd := exec.Command(bin, filepath.Join(pids, "main"), filepath.Join(pids, "child"))
	cmd.Env = append(os.Environ(), markVar+"=1-test", watchFDVar+"=3")
	cmd.ExtraFiles = []*os.File{r}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	require.NoError(t, cmd.Start())
	r.Close()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	main := readPid(t, filepath.Join(pids, "main"))
	child := readPid(t, filepath.Join(pids, "child"))
	select {
	case err := <-done:
		t.Fatalf("the process ended while confirm lived: %v", err)
	case <-time.After(200 * time.Millisecond):
	}
	require.NoError(t, w.Close()) // confirm is gone
	<-done
	assert.Equal(t, "signal: killed", cmd.ProcessState.String())
	assert.True(t, waitGone(main))
	assert.True(t, waitGone(child), "the test's own child must die with the group")

	// Without the mark it is not confirm's run: no watchdog.
	r, w, err = os.Pipe()
	require.NoError(t, err)
	defer w.Close()
	cmd = exec.Command(bin, filepath.Join(pids, "main2"), filepath.Join(pids, "child2"))
	cmd.Env = append(os.Environ(), watchFDVar+"=3")
	cmd.ExtraFiles = []*os.File{r}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	require.NoError(t, cmd.Start())
	r.Close()
	readPid(t, filepath.Join(pids, "main2"))
	child = readPid(t, filepath.Join(pids, "child2"))
	w.Close()
	time.Sleep(200 * time.Millisecond)
	assert.False(t, gone(cmd.Process.Pid), "unmarked: not killed by the pipe")
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	_ = cmd.Wait()
	waitGone(child)
}

// TestSIGKILLLeavesNothing: confirm killed by SIGKILL (no handler runs)
// leaves no test process: go test dies by its parent-death signal, the test
// binary under it by the watchdog (and its own parent-death signal), with
// its child; a daemon that left the group in a session of its own (which
// nothing else catches) is killed by the next confirm, which also removes
// the temporary directory the killed one left (issue 29, item 4).
func TestSIGKILLLeavesNothing(t *testing.T) {
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("no setsid command")
	}
	bin := watchdogBinary(t)
	tmp, pids := t.TempDir(), t.TempDir()
	fake := filepath.Join(t.TempDir(), "go")
	require.NoError(t, os.WriteFile(fake, []byte("#!/bin/sh\n"+
		"setsid sleep 300 & echo $! > "+pids+"/daemon.tmp; mv "+pids+"/daemon.tmp "+pids+"/daemon\n"+
		"echo $$ > "+pids+"/go.tmp; mv "+pids+"/go.tmp "+pids+"/go\n"+
		bin+" "+pids+"/test "+pids+"/child\n"), 0o755))
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Dir = gpuModule(t)
	cmd.Env = append(fixtureEnv(t), "HIPLINT_CONFIRM_SIGNAL_HELPER=1", "HIPLINT_GO="+fake, "TMPDIR="+tmp)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	require.NoError(t, cmd.Start())
	goPid := readPid(t, filepath.Join(pids, "go"))
	testPid := readPid(t, filepath.Join(pids, "test"))
	child := readPid(t, filepath.Join(pids, "child"))
	daemon := readPid(t, filepath.Join(pids, "daemon"))
	require.NoError(t, cmd.Process.Kill())
	_ = cmd.Wait()
	t.Logf("confirm:\n%s", out.String())
	assert.True(t, waitGone(goPid), "go test must die with confirm")
	assert.True(t, waitGone(testPid), "the test binary must die with confirm")
	assert.True(t, waitGone(child), "the test binary's child must die with confirm")
	require.False(t, gone(daemon), "nothing but the next confirm kills the daemon")

	left := func() []string {
		entries, err := os.ReadDir(tmp)
		require.NoError(t, err)
		var names []string
		for _, e := range entries {
			if strings.HasPrefix(e.Name(), tempPrefix) {
				names = append(names, e.Name())
			}
		}
		return names
	}
	require.Len(t, left(), 1, "SIGKILL leaves the temporary directory")
	// Another confirm's directory, still running (this process), stays.
	mine, err := os.MkdirTemp(tmp, tempPrefix+itoa(os.Getpid())+"-"+pidNamespace("self")+"-")
	require.NoError(t, err)
	// A dead pid of another pid namespace may be alive there: left alone.
	other := filepath.Join(tmp, tempPrefix+itoa(deadPid(t))+"-1-x")
	require.NoError(t, os.Mkdir(other, 0o700))
	removeLeftovers(tmp)
	assert.ElementsMatch(t, []string{filepath.Base(mine), filepath.Base(other)}, left())
	assert.True(t, waitGone(daemon), "the next confirm kills what the killed one left")
}

// deadPid returns the pid of a process that has ended.
func deadPid(t *testing.T) int {
	cmd := exec.Command("true")
	require.NoError(t, cmd.Run())
	return cmd.Process.Pid
}
