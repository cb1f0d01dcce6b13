package memcpysync_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/hiplint/hiplint/analyzers/memcpysync"
	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
	"golang.org/x/tools/go/analysis/analysistest"
)

// strictTree copies testdata's memcpysync/strict package, and the headers
// it includes, into a tree of its own with a hiplint.toml above the
// package holding toml.
func strictTree(t *testing.T, toml string) string {
	t.Helper()
	root := t.TempDir()
	require.NoError(t, os.CopyFS(filepath.Join(root, "include"), os.DirFS(filepath.Join(testdata(), "include"))))
	require.NoError(t, os.CopyFS(filepath.Join(root, "src", "memcpysync", "strict"), os.DirFS(filepath.Join(testdata(), "src", "memcpysync", "strict"))))
	require.NoError(t, os.WriteFile(filepath.Join(root, "src", "memcpysync", "hiplint.toml"), []byte(toml), 0o644))
	return root
}

// errorsOnly records analysistest's complaints instead of failing.
type errorsOnly struct{ errs []string }

func (e *errorsOnly) Errorf(format string, args ...any) {
	e.errs = append(e.errs, fmt.Sprintf(format, args...))
}

// -memcpysync.strict set in the package's hiplint.toml, with the flag at
// its default: every strict finding is reported, as with the flag.
func TestStrictFromHiplintToml(t *testing.T) {
	require.Equal(t, "false", memcpysync.Analyzer.Flags.Lookup("strict").Value.String())
	analysistest.Run(t, strictTree(t, "[memcpysync]\nstrict = true\n"), memcpysync.Analyzer, "memcpysync/strict")
}

// The twins: strict = false in the file leaves the strict findings out
// (analysistest misses its wants), and the flag set on the command line
// wins over the file.
func TestStrictFileFalseAndFlagWins(t *testing.T) {
	tree := strictTree(t, "[memcpysync]\nstrict = false\n") // one tree: cgo runs once for both
	var rec errorsOnly
	res := analysistest.Run(&rec, tree, memcpysync.Analyzer, "memcpysync/strict")
	require.Len(t, res, 1)
	assert.NotEmpty(t, rec.errs, "without strict, the strict-only wants are not met")

	require.NoError(t, memcpysync.Analyzer.Flags.Set("strict", "true"))
	defer memcpysync.Analyzer.Flags.Set("strict", "false")
	analysistest.Run(t, tree, memcpysync.Analyzer, "memcpysync/strict")
}
