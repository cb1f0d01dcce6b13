package runtimecheck

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// tempPrefix starts the name of confirm's temporary directory, followed by
// the pid of the confirm that made it and its pid namespace:
// hiplint-confirm-1234-4026531836-567890. A pid means a process only in its
// namespace (a container may share the temporary directory).
const tempPrefix = "hiplint-confirm-"

// makeWorkDir makes this confirm's temporary directory, named with its pid,
// after removing what confirms killed by SIGKILL left behind.
func makeWorkDir() (string, error) {
	removeLeftovers(os.TempDir())
	return os.MkdirTemp("", tempPrefix+strconv.Itoa(os.Getpid())+"-"+pidNamespace("self")+"-")
}

// pidNamespace returns the inode number of process pid's pid namespace
// ("self": this process's), "0" when it cannot be read.
func pidNamespace(pid string) string {
	link, err := os.Readlink("/proc/" + pid + "/ns/pid") // "pid:[4026531836]"
	if err != nil {
		return "0"
	}
	ino := strings.TrimSuffix(strings.TrimPrefix(link, "pid:["), "]")
	if _, err := strconv.ParseUint(ino, 10, 64); err != nil {
		return "0"
	}
	return ino
}

// removeLeftovers removes the temporary directories in tmp of confirms
// that are gone, and kills the test processes they left (those carrying a
// run mark, markVar, of a confirm that is gone: SIGKILL gave it no chance,
// and neither its parent-death signal nor the watchdog reached them). A
// directory or process of a confirm that still runs is left alone, and so
// is anything whose owner cannot be told from its name or environment, or
// that belongs to another pid namespace (where its pids mean other
// processes).
func removeLeftovers(tmp string) {
	ns := pidNamespace("self")
	entries, err := os.ReadDir(tmp)
	if err == nil {
		for _, e := range entries {
			pid, dirNS, ok := leftoverPid(e.Name())
			if !ok || dirNS != ns || !e.IsDir() || !dead(pid) {
				continue
			}
			dir := filepath.Join(tmp, e.Name())
			if info, err := os.Lstat(dir); err != nil || !ownedByMe(info) {
				continue
			}
			_ = os.RemoveAll(dir)
		}
	}
	for pid := range procs() {
		mark, owner, ok := runMarkOf(pid)
		if ok && owner != os.Getpid() && pidNamespace(strconv.Itoa(pid)) == ns && dead(owner) {
			killTree(pid, mark)
			reap(map[int]bool{pid: true}) // killTree leaves root to its exec.Cmd: here there is none
		}
	}
}

// leftoverPid returns the pid and pid namespace in a name made by
// makeWorkDir.
func leftoverPid(name string) (pid int, ns string, ok bool) {
	rest, ok := strings.CutPrefix(name, tempPrefix)
	if !ok {
		return 0, "", false
	}
	f := strings.SplitN(rest, "-", 3)
	if len(f) != 3 {
		return 0, "", false
	}
	pid, err := strconv.Atoi(f[0])
	return pid, f[1], err == nil && pid > 0
}

// dead reports whether no process pid exists. A pid reused since is taken
// for alive: its leftovers wait for a later run.
func dead(pid int) bool {
	return errors.Is(syscall.Kill(pid, 0), syscall.ESRCH)
}

func ownedByMe(info os.FileInfo) bool {
	st, ok := info.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Getuid()
}

// runMarkOf returns the run mark in process pid's environment and the pid
// of the confirm that made it (newRunMark: markVar=<pid>-<random>).
func runMarkOf(pid int) (mark string, owner int, ok bool) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
	if err != nil {
		return "", 0, false
	}
	for _, kv := range strings.Split(string(data), "\x00") {
		v, found := strings.CutPrefix(kv, markVar+"=")
		if !found {
			continue
		}
		digits, _, _ := strings.Cut(v, "-")
		n, err := strconv.Atoi(digits)
		if err != nil || n <= 0 {
			return "", 0, false
		}
		return kv, n, true
	}
	return "", 0, false
}
