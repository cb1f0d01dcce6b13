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
// the pid of the confirm that made it: hiplint-confirm-1234-567890.
const tempPrefix = "hiplint-confirm-"

// makeWorkDir makes this confirm's temporary directory, named with its pid,
// after removing what confirms killed by SIGKILL left behind.
func makeWorkDir() (string, error) {
	removeLeftovers(os.TempDir())
	return os.MkdirTemp("", tempPrefix+strconv.Itoa(os.Getpid())+"-")
}

// removeLeftovers removes the temporary directories in tmp of confirms
// that are gone, and kills the test processes they left (those carrying a
// run mark, markVar, of a confirm that is gone: SIGKILL gave it no chance,
// and neither its parent-death signal nor the watchdog reached them). A
// directory or process of a confirm that still runs is left alone, and so
// is anything whose owner cannot be told from its name or environment.
func removeLeftovers(tmp string) {
	entries, err := os.ReadDir(tmp)
	if err == nil {
		for _, e := range entries {
			pid, ok := leftoverPid(e.Name())
			if !ok || !e.IsDir() || !dead(pid) {
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
		if mark, owner, ok := runMarkOf(pid); ok && owner != os.Getpid() && dead(owner) {
			killTree(pid, mark)
		}
	}
}

// leftoverPid returns the pid in a name made by makeWorkDir.
func leftoverPid(name string) (int, bool) {
	rest, ok := strings.CutPrefix(name, tempPrefix)
	if !ok {
		return 0, false
	}
	digits, _, ok := strings.Cut(rest, "-")
	if !ok {
		return 0, false
	}
	pid, err := strconv.Atoi(digits)
	return pid, err == nil && pid > 0
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
