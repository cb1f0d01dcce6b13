package runtimecheck

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"
)

// stopSignals are the signals that stop confirm cleanly: every one it can
// catch that ends a process by default and that a user, a terminal or a
// supervisor sends to stop it. SIGKILL cannot be caught: then the test
// processes die by their parent-death signal and watchdog (run.go), and the
// next confirm removes the temporary directory (leftovers.go).
var stopSignals = []os.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT}

// forceAfter is how long confirm has, after a stop signal, to stop on
// its own (a run in progress is killed at once; loading packages is not
// interruptible) before it is stopped by force.
const forceAfter = 10 * time.Second

// interrupts stops confirm on a stop signal without leaving anything
// behind. The first signal cancels ctx: the run in progress is killed with
// everything it started (runProcess, killTree), no other run starts, and
// confirm returns, removing its temporary directory. When confirm has not
// returned forceAfter later, or at a second signal, the runs in progress and
// every other process confirm started are killed, the temporary directories
// removed, and the process exits at once. Either way the exit status is
// 128 + the signal's number (129 for SIGHUP, 130 for SIGINT, 131 for
// SIGQUIT, 143 for SIGTERM), as a shell reports a process killed by it.
type interrupts struct {
	ctx    context.Context
	cancel context.CancelFunc
	sigs   chan os.Signal
	done   chan struct{}
	stderr io.Writer

	mu  sync.Mutex
	sig syscall.Signal // the first signal received, 0 if none
}

// catchInterrupts starts catching the stop signals until stop.
func catchInterrupts(stderr io.Writer) *interrupts {
	in := &interrupts{sigs: make(chan os.Signal, 2), done: make(chan struct{}), stderr: stderr}
	in.ctx, in.cancel = context.WithCancel(context.Background())
	signal.Notify(in.sigs, stopSignals...)
	go in.wait()
	return in
}

func (in *interrupts) wait() {
	var force <-chan time.Time
	for {
		select {
		case <-in.done:
			return
		case <-force:
			in.forceExit()
		case s := <-in.sigs:
			in.mu.Lock()
			first := in.sig == 0
			if first {
				in.sig, _ = s.(syscall.Signal)
			}
			in.mu.Unlock()
			if !first {
				in.forceExit()
			}
			fmt.Fprintf(in.stderr, "hiplint confirm: %v: stopping the runs in progress and removing the temporary files\n", s)
			in.cancel()
			force = time.After(forceAfter)
		}
	}
}

// forceExit kills everything confirm started, removes its temporary
// directories and exits.
func (in *interrupts) forceExit() {
	running.killAll()
	self := os.Getpid()
	for pid, p := range procs() {
		if p.ppid == self {
			killTree(pid, "") // go list, the C compiler, ...
		}
	}
	tempDirs.removeAll()
	in.mu.Lock()
	code := 128 + int(in.sig)
	in.mu.Unlock()
	os.Exit(code)
}

// stop stops catching signals. It returns the exit status for the signal
// that stopped confirm, if one did.
func (in *interrupts) stop() (code int, stopped bool) {
	signal.Stop(in.sigs)
	close(in.done)
	in.cancel()
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.sig == 0 {
		return 0, false
	}
	return 128 + int(in.sig), true
}

// tempDirs are the temporary directories of confirms in progress, for
// forceExit to remove.
var tempDirs = &dirs{m: map[string]bool{}}

type dirs struct {
	mu sync.Mutex
	m  map[string]bool
}

func (d *dirs) add(dir string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.m[dir] = true
}

func (d *dirs) remove(dir string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	delete(d.m, dir)
}

func (d *dirs) removeAll() {
	d.mu.Lock()
	defer d.mu.Unlock()
	for dir := range d.m {
		os.RemoveAll(dir)
	}
}
