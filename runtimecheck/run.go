package runtimecheck

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// runSpec is one subprocess to run.
type runSpec struct {
	Args    []string // argv, Args[0] the program
	Dir     string
	Env     []string
	Timeout time.Duration
}

// runResult is how the subprocess ended.
type runResult struct {
	Exit     int
	Signal   string
	TimedOut bool
	OOM      bool
	Output   []byte
	Duration time.Duration
	Err      error // it could not be started
}

// tailBytes is how much of a test's output is kept as evidence.
const tailBytes = 16 << 10

// runProcess runs spec in its own process group. On timeout the whole group
// (go test, the test binary and anything it started) is killed, so nothing
// outlives the run; the timeout is reported, not returned as an error.
func runProcess(ctx context.Context, spec runSpec) runResult {
	ctx, cancel := context.WithTimeout(ctx, spec.Timeout)
	defer cancel()
	cmd := exec.Command(spec.Args[0], spec.Args[1:]...)
	cmd.Dir = spec.Dir
	cmd.Env = spec.Env
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	becomeSubreaper()
	oomBefore := oomKills()
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return runResult{Err: err}
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var res runResult
	var err error
	select {
	case err = <-done:
	case <-ctx.Done():
		res.TimedOut = true
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		err = <-done
	}
	// The group may hold processes that outlived their parent (a test
	// binary whose go test exited): end them too, and reap them, so that no
	// zombie is left behind either (we are their subreaper).
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	reapGroup(cmd.Process.Pid)
	res.Duration = time.Since(start)
	res.Output = tail(out.Bytes(), tailBytes)
	var exitErr *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exitErr):
		res.Exit = exitErr.ExitCode()
		if ws, ok := exitErr.Sys().(syscall.WaitStatus); ok && ws.Signaled() && !res.TimedOut {
			res.Signal = ws.Signal().String()
		}
	default:
		res.Err = err
	}
	// go test reports a signal of the test binary in its output, not in its
	// own status.
	text := string(res.Output)
	if res.Signal == "" {
		for _, sig := range []string{"SIGSEGV", "SIGBUS", "SIGABRT", "SIGILL", "SIGFPE", "SIGKILL"} {
			if strings.Contains(text, "signal: "+strings.ToLower(sigName(sig))) || strings.Contains(text, "[signal "+sig) {
				res.Signal = sig
				break
			}
		}
	}
	if !res.TimedOut && (res.Signal == "SIGKILL" || strings.Contains(text, "signal: killed")) {
		res.OOM = oomKills() > oomBefore
	}
	return res
}

// sigName is the name os/exec prints for a signal ("segmentation fault").
func sigName(sig string) string {
	switch sig {
	case "SIGSEGV":
		return "segmentation fault"
	case "SIGBUS":
		return "bus error"
	case "SIGABRT":
		return "aborted"
	case "SIGILL":
		return "illegal instruction"
	case "SIGFPE":
		return "floating point exception"
	case "SIGKILL":
		return "killed"
	}
	return sig
}

// oomKills returns how many processes the kernel's OOM killer has killed in
// this cgroup (memory.events), or 0 when that is not readable.
func oomKills() int {
	data, err := os.ReadFile("/sys/fs/cgroup/memory.events")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(data), "\n") {
		if f := strings.Fields(l); len(f) == 2 && f[0] == "oom_kill" {
			n, _ := strconv.Atoi(f[1])
			return n
		}
	}
	return 0
}

func tail(b []byte, n int) []byte {
	if len(b) <= n {
		return b
	}
	return b[len(b)-n:]
}

// becomeSubreaper makes this process inherit the orphans of the test
// processes it starts (Linux PR_SET_CHILD_SUBREAPER), so it can reap them.
func becomeSubreaper() {
	const prSetChildSubreaper = 36
	_, _, _ = syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0)
}

// reapGroup waits for the killed members of process group pgid that became
// our children, for at most two seconds.
func reapGroup(pgid int) {
	deadline := time.Now().Add(2 * time.Second)
	for time.Now().Before(deadline) {
		var ws syscall.WaitStatus
		pid, err := syscall.Wait4(-pgid, &ws, syscall.WNOHANG, nil)
		switch {
		case err != nil: // ECHILD: none left
			return
		case pid == 0:
			time.Sleep(20 * time.Millisecond)
		}
	}
}
