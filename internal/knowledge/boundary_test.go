package knowledge

import (
	"flag"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/hiplint/hiplint"

var update = flag.Bool("update", false, "rewrite testdata/core.txt, the core's pinned names, from internal/flow")

// testdata/core.txt lists the exported top-level names of the engine's
// core, internal/flow (methods and fields belong to their type), one a
// line. A name added to the core is added there on purpose (go test
// -run TestBoundary -update); one that serves one analyzer goes into that
// analyzer, one that is GPU knowledge for two or more into a package of
// internal/knowledge.
const coreFile = "testdata/core.txt"

// maxSingle bounds the core's names that fewer than two checks use: the
// names still to go back into their analyzer (or to be unexported) when
// the split of issue 31 goes on. It may only come down.
const maxSingle = 160

// parseDir parses the non-test Go files of dir (not its subdirectories).
func parseDir(t *testing.T, fset *token.FileSet, dir string) []*ast.File {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var files []*ast.File
	for _, e := range ents {
		n := e.Name()
		if e.IsDir() || !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, n), nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	return files
}

// parseTests parses the _test.go files of dir.
func parseTests(t *testing.T, fset *token.FileSet, dir string) []*ast.File {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(dir, "*_test.go"))
	if err != nil {
		t.Fatal(err)
	}
	var files []*ast.File
	for _, p := range paths {
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	return files
}

// typeNames is the set of the exported type names the files declare.
func typeNames(files []*ast.File) map[string]bool {
	out := map[string]bool{}
	for _, f := range files {
		for _, d := range f.Decls {
			if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.TYPE {
				for _, s := range g.Specs {
					if s := s.(*ast.TypeSpec); s.Name.IsExported() {
						out[s.Name.Name] = true
					}
				}
			}
		}
	}
	return out
}

// exported lists the exported top-level names the files declare.
func exported(files []*ast.File) []string {
	var names []string
	for _, f := range files {
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil && d.Name.IsExported() {
					names = append(names, d.Name.Name)
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						if s.Name.IsExported() {
							names = append(names, s.Name.Name)
						}
					case *ast.ValueSpec:
						for _, n := range s.Names {
							if n.IsExported() {
								names = append(names, n.Name)
							}
						}
					}
				}
			}
		}
	}
	sort.Strings(names)
	return names
}

// packageDirs returns every directory under root that holds Go files,
// testdata and hidden directories left out.
func packageDirs(t *testing.T, root string) []string {
	t.Helper()
	var dirs []string
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			n := d.Name()
			if p != root && (n == "testdata" || strings.HasPrefix(n, ".") || strings.HasPrefix(n, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(p, ".go") && !slices.Contains(dirs, filepath.Dir(p)) {
			dirs = append(dirs, filepath.Dir(p))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return dirs
}

// callers maps each import path of the engine (the core and the knowledge
// packages) and exported name to the packages (directories relative to
// the repository) whose non-test files refer to it.
func callers(t *testing.T, fset *token.FileSet, repo string) map[string]map[string]map[string]bool {
	t.Helper()
	return callersOf(t, fset, repo, false)
}

// callersOf is callers over the non-test files, or with tests over the
// test files alone.
func callersOf(t *testing.T, fset *token.FileSet, repo string, tests bool) map[string]map[string]map[string]bool {
	t.Helper()
	uses := map[string]map[string]map[string]bool{}
	for _, dir := range packageDirs(t, repo) {
		rel, _ := filepath.Rel(repo, dir)
		rel = filepath.ToSlash(rel)
		files := parseDir(t, fset, dir)
		if tests {
			files = parseTests(t, fset, dir)
		}
		for _, f := range files {
			names := map[string]string{} // local name -> engine import path
			for _, im := range f.Imports {
				p, _ := strconv.Unquote(im.Path.Value)
				if p != module+"/internal/flow" && !strings.HasPrefix(p, module+"/internal/knowledge/") {
					continue
				}
				local := p[strings.LastIndex(p, "/")+1:]
				if im.Name != nil {
					local = im.Name.Name
				}
				names[local] = p
			}
			if len(names) == 0 {
				continue
			}
			ast.Inspect(f, func(n ast.Node) bool {
				sel, ok := n.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				id, ok := sel.X.(*ast.Ident)
				if !ok {
					return true
				}
				p, ok := names[id.Name]
				if !ok {
					return true
				}
				if uses[p] == nil {
					uses[p] = map[string]map[string]bool{}
				}
				if uses[p][sel.Sel.Name] == nil {
					uses[p][sel.Sel.Name] = map[string]bool{}
				}
				uses[p][sel.Sel.Name][rel] = true
				return true
			})
		}
	}
	return uses
}

// checkOf names the check a package directory belongs to, of those the
// rule counts: an analyzer (analyzers/<name>) or runtimecheck (with its
// subpackages); "" for any other.
func checkOf(rel string) string {
	parts := strings.Split(rel, "/")
	switch {
	case len(parts) == 2 && parts[0] == "analyzers":
		return rel
	case parts[0] == "runtimecheck":
		return "runtimecheck"
	}
	return ""
}

// checksOf returns the checks among the callers of a package's names
// (uses of one import path, by name).
func checksOf(names map[string]map[string]bool) []string {
	var checks []string
	for _, dirs := range names {
		for c := range dirs {
			if k := checkOf(c); k != "" && !slices.Contains(checks, k) {
				checks = append(checks, k)
			}
		}
	}
	sort.Strings(checks)
	return checks
}

// TestBoundary enforces the engine's boundary (issue 31): every exported
// name of a knowledge package has at least two checks among its callers;
// the core's exported names are the pinned list (testdata/core.txt), each
// function, variable and constant used outside the core, and no more than
// maxSingle of them used by fewer than two checks (a core name that a
// knowledge package uses serves the checks that use that package); the core
// imports no knowledge package and no analyzer, a knowledge package no
// check.
func TestBoundary(t *testing.T) {
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	uses := callers(t, fset, repo)

	kdirs, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range kdirs {
		if !e.IsDir() || e.Name() == "testdata" {
			continue
		}
		path := module + "/internal/knowledge/" + e.Name()
		kfiles := parseDir(t, fset, e.Name())
		for _, f := range kfiles {
			for _, im := range f.Imports {
				if p, _ := strconv.Unquote(im.Path.Value); strings.HasPrefix(p, module+"/analyzers") || strings.HasPrefix(p, module+"/runtimecheck") {
					t.Errorf("%s imports %s: a knowledge package imports no check", fset.Position(f.Pos()).Filename, p)
				}
			}
		}
		names := exported(kfiles)
		if len(names) == 0 {
			t.Errorf("%s: a knowledge package with no exported name", path)
		}
		for _, n := range names {
			var checks []string
			for c := range uses[path][n] {
				if k := checkOf(c); k != "" && !slices.Contains(checks, k) {
					checks = append(checks, k)
				}
			}
			sort.Strings(checks)
			if len(checks) < 2 {
				t.Errorf("knowledge/%s.%s has %d check(s) among its callers %v, not two: move it into its analyzer (unexported), or into the core if it is about Go", e.Name(), n, len(checks), checks)
			}
		}
	}

	flowFiles := parseDir(t, fset, filepath.Join(repo, "internal", "flow"))
	core := exported(flowFiles)
	if *update {
		if err := os.WriteFile(coreFile, []byte(strings.Join(core, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(coreFile)
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Fields(string(data))
	sort.Strings(want)
	for _, n := range core {
		if _, ok := slices.BinarySearch(want, n); !ok {
			t.Errorf("flow.%s: a new exported name of the core; if it knows Go and serves several checks, add it to %s (-update), else put it in its analyzer or a knowledge package", n, coreFile)
		}
	}
	for _, n := range want {
		if _, ok := slices.BinarySearch(core, n); !ok {
			t.Errorf("%s lists %s, which the core no longer exports (-update)", coreFile, n)
		}
	}
	types := typeNames(flowFiles)
	testUses := callersOf(t, fset, repo, true)
	single := 0
	for _, n := range core {
		var checks []string
		outside := false
		for c := range uses[module+"/internal/flow"][n] {
			if c != "internal/flow" {
				outside = true
			}
			if k := checkOf(c); k != "" && !slices.Contains(checks, k) {
				checks = append(checks, k)
			}
		}
		for c := range testUses[module+"/internal/flow"][n] {
			if c != "internal/flow" {
				outside = true
			}
		}
		// A core name a knowledge package uses serves the checks that use
		// that package (ZeroComparison serves status.Statuses' callers).
		for c := range uses[module+"/internal/flow"][n] {
			if strings.HasPrefix(c, "internal/knowledge/") {
				for _, k := range checksOf(uses[module+"/"+c]) {
					if !slices.Contains(checks, k) {
						checks = append(checks, k)
					}
				}
			}
		}
		if len(checks) < 2 {
			single++
		}
		// A type may be exported for the signatures that use it alone.
		if !outside && !types[n] {
			t.Errorf("flow.%s is exported but nothing outside the core uses it: unexport it", n)
		}
	}
	if single > maxSingle {
		t.Errorf("the core has %d exported names that fewer than two checks use, more than %d: put the new one in its analyzer", single, maxSingle)
	} else if single < maxSingle {
		t.Logf("the core has %d exported names that fewer than two checks use: lower maxSingle from %d", single, maxSingle)
	}

	for _, f := range parseDir(t, fset, filepath.Join(repo, "internal", "flow")) {
		for _, im := range f.Imports {
			if p, _ := strconv.Unquote(im.Path.Value); strings.HasPrefix(p, module+"/internal/knowledge") || strings.HasPrefix(p, module+"/analyzers") {
				t.Errorf("%s imports %s: the core imports no knowledge package and no analyzer", fset.Position(f.Pos()).Filename, p)
			}
		}
	}
}
