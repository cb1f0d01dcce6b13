package runtimecheck

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// runSpec is one subprocess to run.
type runSpec struct {
	Args    []string // argv, Args[0] the program
	Dir     string
	Env     []string
	Timeout time.Duration
	// OutputFile receives the process's output (the first fileLimit
	// bytes); "": none.
	OutputFile string
}

// runResult is how the subprocess ended.
type runResult struct {
	Exit     int
	Signal   string
	TimedOut bool
	OOM      bool
	// Output is what is kept of stdout and stderr together: all of it, or
	// its head and tail around a line saying how much was left out
	// (capture.text); Events are go test -v's structure lines (=== RUN,
	// --- PASS, ...), kept whatever the size of the output.
	Output   []byte
	Events   []string
	Bytes    int64 // how much the process wrote
	Held     int   // bytes of output held in memory at the end (tests)
	Duration time.Duration
	Err      error // it could not be started
}

// runProcess runs spec in its own process group. At the timeout, when ctx
// is cancelled (confirm was interrupted) and when the process exits, every
// process it started is killed and reaped (killTree): the group, and those
// that left it for a session of their own (setsid) or a double fork, so
// nothing outlives the run, not even a zombie. The timeout is reported, not
// returned as an error.
func runProcess(ctx context.Context, spec runSpec) runResult {
	if err := ctx.Err(); err != nil {
		return runResult{Err: err}
	}
	ctx, cancel := context.WithTimeout(ctx, spec.Timeout)
	defer cancel()
	cmd := exec.Command(spec.Args[0], spec.Args[1:]...)
	cmd.Dir = spec.Dir
	// Every process of the run inherits the mark, through setsid and double
	// forks alike, unless it clears its environment.
	mark := newRunMark()
	cmd.Env = append(append([]string(nil), spec.Env...), mark)
	// The output streams through a pipe into a bounded capture (and a
	// file), never whole into memory.
	out, err := newCapture(spec.OutputFile)
	if err != nil {
		return runResult{Err: err}
	}
	cmd.Stdout = out
	cmd.Stderr = out
	// If confirm dies without a chance to clean up (SIGKILL), the process
	// it started dies with it (Pdeathsig), and the watchdog in the
	// instrumented test binary (csrc/watchdog.c) kills the run's group when
	// the watch pipe reads end of file.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if w, err := watchPipe(); err == nil {
		cmd.ExtraFiles = []*os.File{w}
		cmd.Env = append(cmd.Env, watchFDVar+"=3")
	}
	// A process left behind holding the output pipe (a daemon) must not
	// keep Wait waiting once the process has exited: it is killed next.
	cmd.WaitDelay = 2 * time.Second
	becomeSubreaper()
	oomBefore := oomKills()
	start := time.Now()
	if err := cmd.Start(); err != nil {
		out.close()
		return runResult{Err: err}
	}
	running.add(cmd.Process.Pid, mark)
	defer running.remove(cmd.Process.Pid)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var res runResult
	select {
	case err = <-done:
	case <-ctx.Done():
		res.TimedOut = true
		killTree(cmd.Process.Pid, mark)
		err = <-done
	}
	// The run may have left processes behind that outlived their parent (a
	// test binary whose go test exited, a daemon in its own session): end
	// them too, and reap them (we are their subreaper).
	killTree(cmd.Process.Pid, mark)
	res.Duration = time.Since(start)
	_ = out.close() // a short output file loses nothing judged: the capture has it
	res.Output, res.Events, res.Bytes, res.Held = []byte(out.text()), out.events, out.total, out.held()
	var exitErr *exec.ExitError
	switch {
	case err == nil, errors.Is(err, exec.ErrWaitDelay):
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
	if res.TimedOut && ctx.Err() == context.Canceled {
		// Interrupted, not timed out: confirm is stopping.
		res.TimedOut, res.Err = false, context.Canceled
	}
	return res
}

// watchFDVar names the file descriptor of the watch pipe's read end in a
// test process (csrc/watchdog.c).
const watchFDVar = "HIPLINT_WATCH_FD"

// watch is the watch pipe: its read end goes to every test process, its
// write end stays open in confirm (and only there: close-on-exec) until
// confirm exits, however it exits.
var watch struct {
	once sync.Once
	r, w *os.File
	err  error
}

// watchPipe returns the read end of the watch pipe, made at the first call.
func watchPipe() (*os.File, error) {
	watch.once.Do(func() { watch.r, watch.w, watch.err = os.Pipe() })
	return watch.r, watch.err
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

// becomeSubreaper makes this process inherit the orphans of the test
// processes it starts (Linux PR_SET_CHILD_SUBREAPER), so it can reap them.
func becomeSubreaper() {
	const prSetChildSubreaper = 36
	_, _, _ = syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0)
}
