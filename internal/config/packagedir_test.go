package config

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
	"golang.org/x/tools/go/analysis"
)

// TestPackageDirOnce: PackageDir resolves a package's links once per syntax
// tree: a link moved meanwhile changes nothing for the tree already seen, a
// tree parsed after the move sees the new target, and an answer goes once
// its tree is collected.
func TestPackageDirOnce(t *testing.T) {
	root := t.TempDir()
	a, b := filepath.Join(root, "a"), filepath.Join(root, "b")
	for _, d := range []string{a, b} {
		require.NoError(t, os.Mkdir(d, 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(d, "p.go"), []byte("package p\n"), 0o644))
	}
	link := filepath.Join(root, "link")
	require.NoError(t, os.Symlink(a, link))
	real := func(d string) string {
		r, err := filepath.EvalSymlinks(d)
		require.NoError(t, err)
		return r
	}
	pass := func() *analysis.Pass {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, filepath.Join(link, "p.go"), nil, 0)
		require.NoError(t, err)
		return &analysis.Pass{Fset: fset, Files: []*ast.File{f}}
	}
	first := pass()
	assert.Equal(t, real(a), PackageDir(first))
	require.NoError(t, os.Remove(link))
	require.NoError(t, os.Symlink(b, link))
	assert.Equal(t, real(a), PackageDir(first), "the tree already seen")
	second := pass()
	assert.Equal(t, real(b), PackageDir(second), "a new tree")
	assert.Equal(t, "", PackageDir(&analysis.Pass{Fset: token.NewFileSet()}))

	count := func() int {
		n := 0
		packageDirs.Range(func(any, any) bool { n++; return true })
		return n
	}
	require.GreaterOrEqual(t, count(), 2)
	runtime.KeepAlive(first)
	runtime.KeepAlive(second)
	first, second = nil, nil
	deadline := time.Now().Add(5 * time.Second)
	for count() > 0 && time.Now().Before(deadline) {
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
	assert.Equal(t, 0, count(), "answers go with their trees")
}
