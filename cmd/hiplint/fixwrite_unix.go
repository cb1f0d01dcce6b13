//go:build unix

package main

import (
	"os"
	"syscall"
)

// openNoFollow opens name, whose links were resolved, for reading and
// writing; a symbolic link put in its place since is not followed.
func openNoFollow(name string) (*os.File, error) {
	return os.OpenFile(name, os.O_RDWR|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
}

// owner is who owns a file, and how many hard links it has.
type owner struct {
	uid, gid int
	links    uint64
	known    bool
}

func ownerOf(info os.FileInfo) owner {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return owner{links: 1}
	}
	return owner{uid: int(st.Uid), gid: int(st.Gid), links: uint64(st.Nlink), known: true}
}

// giveOwner makes f, just created, belong to o's owner and group, and
// reports whether it does: root can give a file to anyone, other users
// only to a group of theirs.
func giveOwner(f *os.File, o owner) bool {
	if !o.known {
		return true
	}
	info, err := f.Stat()
	if err != nil {
		return false
	}
	have := ownerOf(info)
	if have.uid == o.uid && have.gid == o.gid {
		return true
	}
	if err := f.Chown(o.uid, o.gid); err != nil {
		return false
	}
	return true
}
