// Package resultcache is hiplint's on-disk cache of analysis results
// (docs/cache.md): entries addressed by a SHA-256 key, each written to a
// temporary file and renamed into place, each carrying the checksum of its
// contents. A reader never sees a partial entry (rename is atomic), and an
// entry that fails its checksum, or cannot be read, is a miss, never an
// error: concurrent runs and a run killed with SIGKILL leave a usable cache.
//
// The size is bounded: Trim removes the least recently used entries (by
// modification time, which Get refreshes) beyond a limit.
package resultcache

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// DefaultLimit is the size the cache is trimmed to when HIPLINT_CACHE_LIMIT
// does not say otherwise: 512 MiB.
const DefaultLimit = 512 << 20

// trimInterval is how often a run that wrote entries trims the cache.
const trimInterval = time.Hour

// mtimeRefresh: Get refreshes an entry's modification time (its last use,
// for Trim) when it is older than this, to spare a write on every hit.
const mtimeRefresh = 10 * time.Minute

// magic starts every entry; the version changes with the layout.
var magic = []byte("hiplint-cache-v1\n")

// A Key addresses an entry.
type Key [sha256.Size]byte

func (k Key) String() string { return hex.EncodeToString(k[:]) }

// A Cache is a directory of entries.
type Cache struct {
	dir   string
	limit int64
	wrote atomic.Bool // an entry was written: MaybeTrim trims
}

// Dir returns the cache directory: $HIPLINT_CACHE when set, else
// hiplint/results under the user cache directory (os.UserCacheDir).
func Dir() (string, error) {
	if d := os.Getenv("HIPLINT_CACHE"); d != "" {
		return filepath.Abs(d)
	}
	base, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(base, "hiplint", "results"), nil
}

// Limit returns the size bound: $HIPLINT_CACHE_LIMIT (bytes, or with a
// suffix K, M or G: powers of 1024) when set and valid, else DefaultLimit.
func Limit() int64 {
	s := strings.TrimSpace(os.Getenv("HIPLINT_CACHE_LIMIT"))
	if s == "" {
		return DefaultLimit
	}
	mult := int64(1)
	switch {
	case strings.HasSuffix(s, "K"):
		mult, s = 1<<10, strings.TrimSuffix(s, "K")
	case strings.HasSuffix(s, "M"):
		mult, s = 1<<20, strings.TrimSuffix(s, "M")
	case strings.HasSuffix(s, "G"):
		mult, s = 1<<30, strings.TrimSuffix(s, "G")
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 {
		return DefaultLimit
	}
	return n * mult
}

// Open opens the cache in dir, creating it (private to the user) when it
// does not exist.
func Open(dir string, limit int64) (*Cache, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	fi, err := os.Lstat(dir)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("cache %s is not a directory", dir)
	}
	return &Cache{dir: dir, limit: limit}, nil
}

// Path returns the cache's directory.
func (c *Cache) Path() string { return c.dir }

// file is the entry's name: kind ("r" results, "m" header manifests, ...),
// the key, in a directory named by the key's first byte.
func (c *Cache) file(kind string, k Key) string {
	h := k.String()
	return filepath.Join(c.dir, h[:2], h+"-"+kind)
}

// Get returns the contents of the entry, and whether there is a whole,
// intact one.
func (c *Cache) Get(kind string, k Key) ([]byte, bool) {
	name := c.file(kind, k)
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, false
	}
	payload, ok := decode(data)
	if !ok {
		return nil, false
	}
	if fi, err := os.Stat(name); err == nil && time.Since(fi.ModTime()) > mtimeRefresh {
		now := time.Now()
		os.Chtimes(name, now, now) // its last use, for Trim; a failure only makes it older
	}
	return payload, true
}

// Put stores data under k: in a temporary file of the same directory, then
// renamed over the entry, so that no reader sees it half written.
func (c *Cache) Put(kind string, k Key, data []byte) error {
	name := c.file(kind, k)
	if err := os.MkdirAll(filepath.Dir(name), 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(name), ".tmp-*")
	if err != nil {
		return err
	}
	_, err = tmp.Write(encode(data))
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), name)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return err
	}
	c.wrote.Store(true)
	return nil
}

// encode frames data: magic, its length, its SHA-256, the data.
func encode(data []byte) []byte {
	sum := sha256.Sum256(data)
	out := make([]byte, 0, len(magic)+8+len(sum)+len(data))
	out = append(out, magic...)
	out = binary.BigEndian.AppendUint64(out, uint64(len(data)))
	out = append(out, sum[:]...)
	return append(out, data...)
}

// decode returns the data of a framed entry, and whether it is intact.
func decode(entry []byte) ([]byte, bool) {
	if !bytes.HasPrefix(entry, magic) {
		return nil, false
	}
	rest := entry[len(magic):]
	if len(rest) < 8+sha256.Size {
		return nil, false
	}
	n := binary.BigEndian.Uint64(rest)
	rest = rest[8:]
	var sum [sha256.Size]byte
	copy(sum[:], rest)
	data := rest[sha256.Size:]
	if uint64(len(data)) != n || sha256.Sum256(data) != sum {
		return nil, false
	}
	return data, true
}

// stampName is the file whose modification time says when the cache was
// last trimmed.
const stampName = "trimmed"

// MaybeTrim trims the cache when this Cache wrote an entry and the last
// trim is older than an hour (or never happened).
func (c *Cache) MaybeTrim() error {
	if !c.wrote.Load() {
		return nil
	}
	stamp := filepath.Join(c.dir, stampName)
	if fi, err := os.Stat(stamp); err == nil && time.Since(fi.ModTime()) < trimInterval {
		return nil
	}
	return c.Trim()
}

// Trim removes the least recently used entries until the cache holds at
// most its limit, and temporary files older than an hour (left by a
// killed run). It records the time of the trim.
func (c *Cache) Trim() error {
	type entry struct {
		name string
		size int64
		mod  time.Time
	}
	var entries []entry
	var total int64
	err := filepath.WalkDir(c.dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil // removed by a concurrent trim
			}
			return err
		}
		if d.IsDir() || path == filepath.Join(c.dir, stampName) {
			return nil
		}
		fi, err := d.Info()
		if err != nil {
			return nil
		}
		if strings.HasPrefix(d.Name(), ".tmp-") {
			if time.Since(fi.ModTime()) > time.Hour {
				os.Remove(path)
			}
			return nil
		}
		entries = append(entries, entry{path, fi.Size(), fi.ModTime()})
		total += fi.Size()
		return nil
	})
	if err != nil {
		return err
	}
	if total > c.limit {
		slices.SortFunc(entries, func(a, b entry) int { return a.mod.Compare(b.mod) })
		for _, e := range entries {
			if total <= c.limit {
				break
			}
			if err := os.Remove(e.name); err == nil || errors.Is(err, fs.ErrNotExist) {
				total -= e.size
			}
		}
	}
	stamp := filepath.Join(c.dir, stampName)
	if err := os.WriteFile(stamp, nil, 0o600); err != nil {
		return err
	}
	now := time.Now()
	return os.Chtimes(stamp, now, now)
}
