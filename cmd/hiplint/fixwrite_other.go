//go:build !unix

package main

import "os"

func openNoFollow(name string) (*os.File, error) {
	return os.OpenFile(name, os.O_RDWR, 0)
}

// owner is who owns a file, and how many hard links it has: unknown here.
type owner struct{ links uint64 }

func ownerOf(os.FileInfo) owner { return owner{links: 1} }

func giveOwner(*os.File, owner) bool { return true }
