//go:build unix

package fixes

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
)

// Before the fix Read was os.ReadFile: /dev/zero never ended and a FIFO
// never opened (issue 16 item 1).
func TestReadOnlyRegularBoundedFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	require.NoError(t, syscall.Mkfifo(fifo, 0o600))
	small := filepath.Join(dir, "small.go")
	require.NoError(t, os.WriteFile(small, []byte("package small\n"), 0o644))
	big := filepath.Join(dir, "big.go")
	require.NoError(t, os.WriteFile(big, []byte(strings.Repeat("x", 101)), 0o644))

	src := NewSources()
	for _, name := range []string{"/dev/zero", fifo, dir} {
		_, err := src.Read(name)
		if assert.Error(t, err, name) {
			assert.Contains(t, err.Error(), "is not a regular file", name)
		}
	}
	data, err := src.Read(small)
	require.NoError(t, err)
	assert.Equal(t, "package small\n", string(data))

	_, err = ReadBounded(big, 100)
	if assert.Error(t, err) {
		assert.Contains(t, err.Error(), "is larger than 100 bytes")
	}
	data, err = ReadBounded(big, 101)
	require.NoError(t, err)
	assert.Len(t, data, 101)
}
