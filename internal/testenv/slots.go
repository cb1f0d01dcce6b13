package testenv

import (
	"os"
	"sync"
	"testing"
)

// Slots hands out directories that one test at a time uses. The go command
// keys cgo's output and a package's compile on the package's directory: a
// test that writes a fixture module into a directory where an earlier test
// wrote the same one finds them in the build cache, where a directory of
// its own would run cgo and the compiler again (a second or more of CPU
// for each cgo package; docs/performance.md, "Test suite time, fifth
// round"). Tests whose fixtures differ in headers the build cache does not
// see must not share them.
type Slots struct {
	mu   sync.Mutex
	free []string
}

// Get returns an empty directory under root that no other test uses until
// t ends; then the next test that asks gets it, emptied.
func (s *Slots) Get(t testing.TB, root string) string {
	t.Helper()
	s.mu.Lock()
	var dir string
	if n := len(s.free); n > 0 {
		dir = s.free[n-1]
		s.free = s.free[:n-1]
	}
	s.mu.Unlock()
	if dir != "" && (os.RemoveAll(dir) != nil || os.Mkdir(dir, 0o755) != nil) {
		dir = "" // left unusable (a test changed its permissions): a new one
	}
	if dir == "" {
		if root == "" {
			t.Fatal("testenv.Slots: no root directory (made by TestMain)")
		}
		var err error
		if dir, err = os.MkdirTemp(root, "slot-"); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() {
		s.mu.Lock()
		s.free = append(s.free, dir)
		s.mu.Unlock()
	})
	return dir
}
