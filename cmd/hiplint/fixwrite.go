package main

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/hiplint/hiplint/internal/fixes"
)

// How -fix writes a file (docs/reliability.md, "-fix safety"): only while
// the file still holds the bytes that were analyzed, under an exclusive
// lock that serializes hiplint processes, by compare-and-rename, keeping
// the file's owner, group, mode and hard links.

// errChanged is the error of writing a file that no longer holds the bytes
// that were analyzed.
var errChanged = fmt.Errorf("the file %w; run hiplint -fix again", fixes.ErrChanged)

// lockWait bounds the wait for another process's lock on a file: -fix
// never hangs on a lock that is not released.
var lockWait = 10 * time.Second

// writeData writes the new content into the temporary file (or, for a file
// with hard links, into the file itself); tests replace it to fail half
// way.
var writeData = func(w io.Writer, data []byte) error {
	_, err := w.Write(data)
	return err
}

// writeFileAtomic replaces the content of name, a regular file whose
// symbolic links are resolved, with data, provided name still holds the
// bytes whose SHA-256 is analyzed. With errChanged it writes nothing when
// it does not.
//
// It takes an exclusive advisory lock on the file (flock), so that of two
// hiplint processes fixing one file, the second finds it changed. Under the
// lock it checks the content, writes data to a temporary file beside it
// with the file's mode, owner and group, syncs it, checks the content once
// more and renames the temporary file over name: a full disk or a crash
// leaves either the old file or the new one, never a truncated one. A file
// with more than one hard link, or whose owner or group the temporary file
// cannot be given, is rewritten in place instead, after the same check, so
// that its links keep sharing it and it keeps its owner; a failed write
// there puts the old content back. A file without write permission is not
// written, although its directory would allow the rename.
//
// beforeCommit, when not nil, is called just before the last check (tests
// change the file there).
func writeFileAtomic(name string, analyzed [sha256.Size]byte, data []byte, beforeCommit func(name string)) (err error) {
	info, err := os.Lstat(name)
	if err != nil {
		return err
	}
	switch {
	case !info.Mode().IsRegular():
		return fmt.Errorf("%s is not a regular file", name)
	case info.Mode().Perm()&0o200 == 0:
		return fmt.Errorf("%s is read-only (mode %v)", name, info.Mode().Perm())
	}
	f, err := openLocked(name)
	if err != nil {
		return err
	}
	defer f.Close() // releases the lock, after the rename
	old, err := checkContent(f, analyzed)
	if err != nil {
		return err
	}
	if info, err = f.Stat(); err != nil {
		return err
	}
	own := ownerOf(info)
	if own.links > 1 {
		return rewriteInPlace(f, name, analyzed, old, data, beforeCommit)
	}

	tmp, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".hiplint-*")
	if err != nil {
		return err
	}
	defer func() {
		if tmp != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err := writeData(tmp, data); err != nil {
		return fmt.Errorf("writing %s: %w", name, err)
	}
	if err := tmp.Sync(); err != nil {
		return fmt.Errorf("writing %s: %w", name, err)
	}
	if !giveOwner(tmp, own) {
		// The new file would change hands: keep the inode instead.
		tmp.Close()
		os.Remove(tmp.Name())
		tmp = nil
		return rewriteInPlace(f, name, analyzed, old, data, beforeCommit)
	}
	// After the chown, which clears the set-user-ID and set-group-ID bits.
	if err := tmp.Chmod(info.Mode() & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky)); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", name, err)
	}
	if beforeCommit != nil {
		beforeCommit(name)
	}
	// The last look, under the lock: name is still the file locked, and it
	// still holds the analyzed bytes. (An editor, which takes no lock, can
	// still save between this look and the rename: its save is then
	// replaced. No file system offers a rename that compares first.)
	if err := stillLocked(f, name); err != nil {
		return err
	}
	if _, err := checkContent(f, analyzed); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), name); err != nil {
		return err
	}
	tmp = nil
	// Make the rename itself durable; a directory that cannot be synced
	// has the new file all the same.
	if dir, err := os.Open(filepath.Dir(name)); err == nil {
		_ = dir.Sync()
		dir.Close()
	}
	return nil
}

// openLocked opens name for reading and writing and locks it exclusively.
// If name was replaced while the lock was awaited (another hiplint renamed
// its fixed file over it), the new file is locked instead.
func openLocked(name string) (*os.File, error) {
	for range 3 {
		f, err := openNoFollow(name)
		if err != nil {
			return nil, err
		}
		if err := lockFile(f, lockWait); err != nil {
			f.Close()
			return nil, fmt.Errorf("locking %s: %w", name, err)
		}
		err = stillLocked(f, name)
		if err == nil {
			return f, nil
		}
		f.Close()
		if !errors.Is(err, errChanged) {
			return nil, err
		}
	}
	return nil, errChanged
}

// stillLocked fails with errChanged when name is no longer the file f.
func stillLocked(f *os.File, name string) error {
	locked, err := f.Stat()
	if err != nil {
		return err
	}
	now, err := os.Lstat(name)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return errChanged
		}
		return err
	}
	if !os.SameFile(locked, now) {
		return errChanged
	}
	return nil
}

// checkContent reads f whole and returns its content, or errChanged when
// its SHA-256 is not analyzed.
func checkContent(f *os.File, analyzed [sha256.Size]byte) ([]byte, error) {
	data, err := io.ReadAll(io.NewSectionReader(f, 0, fixes.MaxFileSize+1))
	if err != nil {
		return nil, err
	}
	if len(data) > fixes.MaxFileSize || sha256.Sum256(data) != analyzed {
		return nil, errChanged
	}
	return data, nil
}

// rewriteInPlace replaces the content of f, locked and holding old, with
// data, after checking once more that it holds the analyzed bytes. A write
// that fails puts old back: the blocks old used are the file's already, so
// that write does not run out of space on a file system that overwrites in
// place.
func rewriteInPlace(f *os.File, name string, analyzed [sha256.Size]byte, old, data []byte, beforeCommit func(string)) error {
	if beforeCommit != nil {
		beforeCommit(name)
	}
	if _, err := checkContent(f, analyzed); err != nil {
		return err
	}
	write := func(content []byte) error {
		if err := writeData(io.NewOffsetWriter(f, 0), content); err != nil {
			return err
		}
		if err := f.Truncate(int64(len(content))); err != nil {
			return err
		}
		return f.Sync()
	}
	if err := write(data); err != nil {
		if _, rerr := f.WriteAt(old, 0); rerr == nil {
			rerr = f.Truncate(int64(len(old)))
			if rerr == nil {
				rerr = f.Sync()
			}
			if rerr == nil {
				return fmt.Errorf("writing %s: %w (its content is restored)", name, err)
			}
		}
		return fmt.Errorf("writing %s: %w (the file may be damaged)", name, err)
	}
	return nil
}
