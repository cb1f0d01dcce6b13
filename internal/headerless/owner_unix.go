//go:build unix

package headerless

import (
	"io/fs"
	"syscall"
)

// owner returns the user ID that owns the file of fi.
func owner(fi fs.FileInfo) (uid int, ok bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return int(st.Uid), true
}
