// Package sharedrun runs analysistest once over the fixture packages of
// several tests of one analyzer.
//
// Each analysistest.Run lists its patterns with the go command and loads
// them and every dependency from syntax: the standard library packages the
// fixtures import (fmt, os, unsafe, runtime/cgo and theirs) are parsed and
// type-checked again for every run. An analyzer's tests that each ran it on
// their own fixture paid that once per test; a Run pays it once per test
// binary, and each test still checks only its own packages: the want
// comments of its packages, the errors about them, their results.
//
// A package's analysis depends only on the package and its dependencies,
// so analyzing it beside other fixtures gives it the same diagnostics and
// facts. Tests that change the analyzer's flags or analyze another tree
// cannot share a run: they call analysistest.Run themselves.
package sharedrun

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
)

// A Run is one analysistest.Run of Analyzer over Patterns in the GOPATH
// tree Dir, made by the first test that asks for it.
type Run struct {
	Dir      string
	Analyzer *analysis.Analyzer
	Patterns []string // package paths, or a path followed by /... for those below it

	once    sync.Once
	errs    []string
	results []*analysistest.Result
}

// recorder keeps analysistest's complaints for the tests they concern.
type recorder struct{ errs []string }

func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

// Check fails t with each of the shared run's complaints that concerns the
// packages of patterns (an unmet want comment, an unexpected diagnostic, a
// failed analysis), and with each that concerns none of the run's patterns
// (a load that failed), and returns the results of patterns' packages
// (their test variants and external test packages included), as
// analysistest.Run(t, Dir, Analyzer, patterns...) would. Each of patterns
// must be one of Patterns or lie below one of them.
func (r *Run) Check(t testing.TB, patterns ...string) []*analysistest.Result {
	t.Helper()
	for _, p := range patterns {
		if !covered(r.Patterns, p) {
			t.Fatalf("sharedrun: %q is not among the shared run's patterns %q", p, r.Patterns)
		}
	}
	r.once.Do(func() {
		var rec recorder
		r.results = analysistest.Run(&rec, r.Dir, r.Analyzer, r.Patterns...)
		r.errs = rec.errs
	})
	for _, e := range r.errs {
		if concerns(r.Dir, patterns, e) || !concerns(r.Dir, r.Patterns, e) {
			t.Errorf("%s", e)
		}
	}
	var out []*analysistest.Result
	for _, res := range r.results {
		if res.Action != nil && matchesAny(patterns, res.Action.Package.PkgPath) {
			out = append(out, res)
		}
	}
	return out
}

// covered reports whether the packages of pattern p are among those of
// patterns.
func covered(patterns []string, p string) bool {
	for _, q := range patterns {
		if q == p {
			return true
		}
		if prefix, ok := strings.CutSuffix(q, "/..."); ok && (p == prefix || strings.HasPrefix(p, prefix+"/")) {
			return true
		}
	}
	return false
}

// matchesAny reports whether the package path (of a package, its test
// variant or its external test package) matches one of patterns.
func matchesAny(patterns []string, path string) bool {
	path = strings.TrimSuffix(strings.TrimSuffix(path, "_test"), ".test")
	for _, p := range patterns {
		if prefix, ok := strings.CutSuffix(p, "/..."); ok {
			if path == prefix || strings.HasPrefix(path, prefix+"/") {
				return true
			}
		} else if path == p {
			return true
		}
	}
	return false
}

// fileRE matches the names of the files complaints are about: relative
// to dir/src (analysistest writes positions so) or absolute.
var fileRE = regexp.MustCompile("[^\\s:\"'`]+\\.go\\b")

// concerns reports whether analysistest's complaint msg is about a package
// of patterns: it names a file of the package's directory (relative to
// dir/src or under it), or the package as an analysis action does
// (analyzer@path).
func concerns(dir string, patterns []string, msg string) bool {
	src := filepath.Join(dir, "src") + string(filepath.Separator)
	for _, file := range fileRE.FindAllString(msg, -1) {
		file = strings.TrimPrefix(file, src)
		if !filepath.IsAbs(file) && matchesAny(patterns, filepath.ToSlash(filepath.Dir(file))) {
			return true
		}
	}
	for i := 0; ; {
		j := strings.IndexByte(msg[i:], '@')
		if j < 0 {
			break
		}
		i += j + 1
		path := msg[i:]
		if k := strings.IndexAny(path, ": \n["); k >= 0 {
			path = path[:k]
		}
		if matchesAny(patterns, path) {
			return true
		}
	}
	return false
}
