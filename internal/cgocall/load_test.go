package cgocall_test

import (
	"bufio"
	"fmt"
	"go/ast"
	"go/types"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"

	"golang.org/x/tools/go/packages"

	"github.com/hiplint/hiplint/internal/cgocall"
	"github.com/hiplint/hiplint/internal/testenv/require"
)

// The packages under testdata form the module example.com/calls. They use cgo,
// so loading them runs cmd/cgo, which needs a C compiler.

var (
	loadOnce sync.Once
	loaded   map[string]*packages.Package // by package name
	loadErr  error
)

func requireGCC(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("gcc not found in PATH: the cgo testdata packages need a C compiler for cmd/cgo")
	}
}

// load type-checks the testdata packages from the files cgo generated, the
// way go/packages hands them to hiplint.
func load(t *testing.T) map[string]*packages.Package {
	t.Helper()
	requireGCC(t)
	loadOnce.Do(func() {
		dir, err := filepath.Abs("testdata")
		if err != nil {
			loadErr = err
			return
		}
		cfg := &packages.Config{
			Mode: packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles |
				packages.NeedImports | packages.NeedSyntax | packages.NeedTypes | packages.NeedTypesInfo,
			Dir: dir,
			Env: append(os.Environ(), "CGO_ENABLED=1", "GOWORK=off", "GOFLAGS="),
		}
		pkgs, err := packages.Load(cfg, "./...")
		if err != nil {
			loadErr = err
			return
		}
		loaded = map[string]*packages.Package{}
		for _, p := range pkgs {
			for _, e := range p.Errors {
				loadErr = fmt.Errorf("%s: %v", p.PkgPath, e)
				return
			}
			loaded[p.Name] = p
		}
	})
	require.NoError(t, loadErr)
	for _, name := range []string{"hipcalls", "handdecl", "cudacalls", "cudaptds", "plain"} {
		require.Contains(t, loaded, name)
	}
	return loaded
}

// cgoPackages are the testdata packages that use cgo.
var cgoPackages = []string{"hipcalls", "handdecl", "cudacalls", "cudaptds"}

// userFiles returns the package's non-support files.
func userFiles(pkg *packages.Package) []*ast.File {
	var out []*ast.File
	for _, f := range pkg.Syntax {
		if !cgocall.IsSupportFile(pkg.Fset, f) {
			out = append(out, f)
		}
	}
	return out
}

// sourceLines reads a user source file, 1-based.
func sourceLines(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	lines := []string{""}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	require.NoError(t, sc.Err())
	return lines
}

// cgoName matches the names cgo substitutes for C.x references.
var cgoName = regexp.MustCompile(`\b_C(?:func|2func|type|iconst|fconst|sconst|var)_(\w+)`)

// cgoTemp matches cgo's temporaries, which must never leak into Call.Args.
var cgoTemp = regexp.MustCompile(`\b_cgo(?:\d+|Base\d+|Index\d+|Slice\d+)\b`)

// render writes e as the user wrote it: types.ExprString of the
// cgo-processed syntax with C.x in place of cgo's mangled names.
func render(e ast.Expr) string {
	if e == nil {
		return "<nil>"
	}
	return cgoName.ReplaceAllString(types.ExprString(e), "C.$1")
}

// annotation is one "// call:" or "// kind:" comment of a testdata file.
type annotation struct {
	file string // base name
	line int
	text string
}

func (a annotation) String() string { return fmt.Sprintf("%s:%d: %s", a.file, a.line, a.text) }

var annotationRE = regexp.MustCompile(`//\s*(call|kind):\s*`)

// annotations parses the "// call: NAME ARG | ARG" and "// kind: CONST=VALUE"
// comments of a package's original source files.
func annotations(t *testing.T, pkg *packages.Package) (calls, kinds []annotation) {
	t.Helper()
	for _, path := range pkg.GoFiles {
		for n, line := range sourceLines(t, path) {
			locs := annotationRE.FindAllStringSubmatchIndex(line, -1)
			for i, loc := range locs {
				end := len(line)
				if i+1 < len(locs) {
					end = locs[i+1][0]
				}
				text := strings.TrimSpace(line[loc[1]:end])
				a := annotation{file: filepath.Base(path), line: n, text: text}
				switch line[loc[2]:loc[3]] {
				case "call":
					a.text = normalizeCall(text)
					calls = append(calls, a)
				case "kind":
					kinds = append(kinds, a)
				}
			}
		}
	}
	return calls, kinds
}

// normalizeCall turns "NAME A | B" into "NAME(A | B)".
func normalizeCall(text string) string {
	name, rest, _ := strings.Cut(text, " ")
	var args []string
	if rest = strings.TrimSpace(rest); rest != "" {
		for a := range strings.SplitSeq(rest, " | ") {
			args = append(args, strings.TrimSpace(a))
		}
	}
	return callText(name, args)
}

func callText(name string, args []string) string {
	return name + "(" + strings.Join(args, " | ") + ")"
}

func strs[T fmt.Stringer](xs []T) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = x.String()
	}
	sort.Strings(out)
	return out
}
