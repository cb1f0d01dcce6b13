package runtimecheck

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// markVar is the environment variable each test process is started with,
// with a value unique to the run: its descendants inherit it, so the run's
// processes are found even after they leave its process group and its
// process tree (setsid, double fork).
const markVar = "HIPLINT_CONFIRM_RUN"

// newRunMark returns a new markVar=value setting.
func newRunMark() string {
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	return markVar + "=" + strconv.Itoa(os.Getpid()) + "-" + hex.EncodeToString(b)
}

// running holds the runs in progress, for an interrupted confirm to end them
// (Main's signal handling).
var running = &runs{m: map[int]string{}}

type runs struct {
	mu sync.Mutex
	m  map[int]string // pid of the started process: its mark
}

func (r *runs) add(pid int, mark string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.m[pid] = mark
}

func (r *runs) remove(pid int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.m, pid)
}

// killAll ends every run in progress.
func (r *runs) killAll() {
	r.mu.Lock()
	m := make(map[int]string, len(r.m))
	for pid, mark := range r.m {
		m[pid] = mark
	}
	r.mu.Unlock()
	for pid, mark := range m {
		killTree(pid, mark)
	}
}

// proc is one process as /proc shows it.
type proc struct {
	ppid  int
	state byte // R, S, D, T, Z, ...
}

// procs returns every process of the system by pid (Linux /proc; nothing
// elsewhere).
func procs() map[int]proc {
	out := map[int]proc{}
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return out
	}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if p, ok := readProc(pid); ok {
			out[pid] = p
		}
	}
	return out
}

// readProc reads /proc/pid/stat: "pid (comm) state ppid ...", where comm
// may hold spaces and parentheses.
func readProc(pid int) (proc, bool) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return proc{}, false
	}
	i := bytes.LastIndexByte(data, ')')
	if i < 0 {
		return proc{}, false
	}
	f := strings.Fields(string(data[i+1:]))
	if len(f) < 2 || len(f[0]) != 1 {
		return proc{}, false
	}
	ppid, err := strconv.Atoi(f[1])
	if err != nil {
		return proc{}, false
	}
	return proc{ppid: ppid, state: f[0][0]}, true
}

// marked reports whether process pid was started with mark in its
// environment (readable for this user's processes only).
func marked(pid int, mark string) bool {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
	if err != nil {
		return false
	}
	for _, kv := range bytes.Split(data, []byte{0}) {
		if string(kv) == mark {
			return true
		}
	}
	return false
}

// members returns the processes of a run: root while it is this process's
// child (its pid is not reused yet), the processes carrying its mark, and
// all their descendants, never this process or its ancestors.
func members(table map[int]proc, root int, mark string) map[int]bool {
	self := map[int]bool{}
	for pid := os.Getpid(); pid > 0 && !self[pid]; pid = table[pid].ppid {
		self[pid] = true
	}
	children := map[int][]int{}
	var queue []int
	for pid, p := range table {
		children[p.ppid] = append(children[p.ppid], pid)
		if (pid == root && p.ppid == os.Getpid()) || (mark != "" && !self[pid] && marked(pid, mark)) {
			queue = append(queue, pid)
		}
	}
	out := map[int]bool{}
	for len(queue) > 0 {
		pid := queue[0]
		queue = queue[1:]
		if out[pid] || self[pid] {
			continue
		}
		out[pid] = true
		queue = append(queue, children[pid]...)
	}
	return out
}

// killTree kills every process of the run started as root with mark, and
// reaps those that became this process's children. The members are stopped
// first, round after round until no new one appears, so that none can fork
// a child the kill would miss, and the tree keeps its shape while it is
// walked; then all are killed, with root's process group. Linux only: where
// /proc is missing, only the group is killed.
func killTree(root int, mark string) {
	stopped := map[int]bool{}
	for round := 0; round < 50; round++ {
		table := procs()
		fresh := false
		settling := false
		for pid := range members(table, root, mark) {
			if !stopped[pid] {
				_ = syscall.Kill(pid, syscall.SIGSTOP)
				stopped[pid] = true
				fresh = true
			} else if st := table[pid].state; st != 'T' && st != 't' && st != 'Z' && st != 'X' {
				settling = true // the stop is not delivered yet: it may still fork
			}
		}
		if !fresh && !settling {
			break
		}
		if !fresh {
			time.Sleep(2 * time.Millisecond)
		}
	}
	_ = syscall.Kill(-root, syscall.SIGKILL)
	for pid := range stopped {
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
	delete(stopped, root) // reaped by its exec.Cmd
	reap(stopped)
}

// reap waits for the killed processes that became this process's children
// (it is their subreaper) until none is left, for at most five seconds.
// Those of other parents are theirs to reap.
func reap(pids map[int]bool) {
	deadline := time.Now().Add(5 * time.Second)
	self := os.Getpid()
	for len(pids) > 0 && time.Now().Before(deadline) {
		for pid := range pids {
			p, ok := readProc(pid)
			switch {
			case !ok:
				delete(pids, pid) // gone
			case p.ppid == self:
				var ws syscall.WaitStatus
				if got, _ := syscall.Wait4(pid, &ws, syscall.WNOHANG, nil); got == pid {
					delete(pids, pid)
				}
			}
			// Else its parent, killed too, has not gone yet (then it
			// comes to us), or the process is another parent's to reap.
		}
		if len(pids) > 0 {
			time.Sleep(10 * time.Millisecond)
		}
	}
}
