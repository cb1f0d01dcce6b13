package sharedrun

import (
	"fmt"
	"go/ast"
	"os"
	"path/filepath"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
	"golang.org/x/tools/go/analysis"
)

// funcs reports every function declaration.
var funcs = &analysis.Analyzer{
	Name: "funcs",
	Doc:  "reports every function declaration",
	Run: func(pass *analysis.Pass) (any, error) {
		for _, f := range pass.Files {
			for _, d := range f.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok {
					pass.Reportf(fd.Pos(), "func %s", fd.Name.Name)
				}
			}
		}
		return nil, nil
	},
}

// fakeT records what a test would have been failed with.
type fakeT struct {
	testing.TB
	errs, fatals []string
}

func (f *fakeT) Helper() {}
func (f *fakeT) Errorf(format string, args ...any) {
	f.errs = append(f.errs, fmt.Sprintf(format, args...))
}
func (f *fakeT) Fatalf(format string, args ...any) {
	f.fatals = append(f.fatals, fmt.Sprintf(format, args...))
}

// TestEachTestGetsItsOwnComplaints: one run over three packages; the test
// of the package whose want comment is wrong fails with that complaint and
// gets its package's result, the others pass, a pattern outside the run
// fails at once, and a load failure fails every test.
func TestEachTestGetsItsOwnComplaints(t *testing.T) {
	dir := t.TempDir()
	for pkg, src := range map[string]string{
		"fx/good":     "package good\n\nfunc F() {} // want `func F`\n",
		"fx/good/sub": "package sub\n\nfunc G() {} // want `func G`\n",
		"fx/bad":      "package bad\n\nfunc H() {} // want `func NotH`\n",
	} {
		require.NoError(t, os.MkdirAll(filepath.Join(dir, "src", pkg), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, "src", pkg, "x.go"), []byte(src), 0o644))
	}
	r := &Run{Dir: dir, Analyzer: funcs, Patterns: []string{"fx/good/...", "fx/bad"}}

	var good fakeT
	res := r.Check(&good, "fx/good")
	assert.Empty(t, good.errs, "fx/good's wants are met; fx/bad's complaints are not its own")
	require.Len(t, res, 1)
	assert.Equal(t, "fx/good", res[0].Action.Package.PkgPath)
	require.Len(t, res[0].Diagnostics, 1)

	var sub fakeT
	assert.Len(t, r.Check(&sub, "fx/good/sub"), 1)
	assert.Empty(t, sub.errs)

	var bad fakeT
	res = r.Check(&bad, "fx/bad")
	require.Len(t, res, 1)
	assert.Equal(t, "fx/bad", res[0].Action.Package.PkgPath)
	require.Len(t, bad.errs, 2, "%q", bad.errs)
	assert.Contains(t, bad.errs[0]+bad.errs[1], `diagnostic "func H" does not match`)
	assert.Contains(t, bad.errs[0]+bad.errs[1], "func NotH")

	var outside fakeT
	r.Check(&outside, "fx/other")
	require.Len(t, outside.fatals, 1)
	assert.Contains(t, outside.fatals[0], `"fx/other" is not among`)

	// A pattern that matches nothing fails the load: every test hears of it.
	broken := &Run{Dir: dir, Analyzer: funcs, Patterns: []string{"fx/good", "fx/none"}}
	var first fakeT
	assert.Empty(t, broken.Check(&first, "fx/good"))
	require.NotEmpty(t, first.errs)
	assert.Contains(t, first.errs[0], "fx/none")
}

func TestConcerns(t *testing.T) {
	dir := "/d"
	for _, c := range []struct {
		patterns []string
		msg      string
		want     bool
	}{
		{[]string{"a/b"}, "/d/src/a/b/x.go:3:1: unexpected diagnostic: m", true},
		{[]string{"a/b"}, "a/b/x.go:3:1: diagnostic \"m\" does not match pattern `n`", true},
		{[]string{"a/b"}, "a/b/c/x.go:3: no diagnostic was reported matching `n`", false},
		{[]string{"a/b"}, "can't read '// want' comments from /d/src/a/b/x.go: EOF", true},
		{[]string{"a/b"}, "can't read '// want' comments from /e/src/a/b/x.go: EOF", false},
		{[]string{"a/b"}, "/d/src/a/b/c/x.go:3:1: unexpected diagnostic: m", false},
		{[]string{"a/..."}, "/d/src/a/b/c/x.go:3:1: unexpected diagnostic: m", true},
		{[]string{"a/bc"}, "/d/src/a/b/x.go:3: no diagnostic was reported matching `m`", false},
		{[]string{"a/b"}, "error analyzing funcs@a/b [a/b.test]: boom", true},
		{[]string{"a/b"}, "error analyzing funcs@a/b_test [a/b.test]: boom", true},
		{[]string{"a/b"}, "error analyzing funcs@a/bc: boom", false},
		{[]string{"a/b"}, "loading [a/b]: no packages matched", false},
	} {
		assert.Equal(t, c.want, concerns(dir, c.patterns, c.msg), "%q %q", c.patterns, c.msg)
	}
}
