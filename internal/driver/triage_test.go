package driver_test

import (
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hiplint/hiplint/internal/driver"
	"github.com/hiplint/hiplint/internal/testenv"
	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
	"golang.org/x/tools/go/packages"
)

// module writes a module example.com/m with one package per entry of pkgs
// (directory → files) and returns its directory.
func module(t *testing.T, pkgs map[string]map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	require.NoError(t, writeModule(dir, pkgs))
	return dir
}

// writeModule writes module's files into dir.
func writeModule(dir string, pkgs map[string]map[string]string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/m\n\ngo 1.26\n"), 0o644); err != nil {
		return err
	}
	for pkg, files := range pkgs {
		if err := os.MkdirAll(filepath.Join(dir, pkg), 0o755); err != nil {
			return err
		}
		for name, src := range files {
			if err := os.WriteFile(filepath.Join(dir, pkg, name), []byte(src), 0o644); err != nil {
				return err
			}
		}
	}
	return nil
}

const sdkSrc = `package sdk

// #include <no_such_sdk_header.h>
import "C"

import "unsafe"

type Handle struct{ h C.sdkHandle_t }

var names = map[C.sdkStatus_t]string{C.SDK_OK: "ok", C.SDK_FAIL: "fail"}

func Copy(dst, src unsafe.Pointer, n int) int {
	C.hipMemcpy(dst, src, C.size_t(n), C.hipMemcpyDeviceToDevice)
	h := Handle{}
	_ = h.h
	return n + 1
}
`

// goCache is the build cache of load: one per test binary, empty when it
// starts (TestMain), as each load's own was; with one per load, every load
// ran cgo for runtime/cgo again (TestRunLines loads its module twice).
var goCache string

// binaryTemp is a directory for what the tests of this binary share,
// removed when they end.
var binaryTemp string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "hiplint-driver-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binaryTemp = dir
	goCache = filepath.Join(dir, "gocache")
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

func load(t *testing.T, dir string, tests bool) []*packages.Package {
	t.Helper()
	env := append(testenv.NoGPUHeaders(t), "GOCACHE="+goCache, "GOFLAGS=")
	pkgs, err := packages.Load(&packages.Config{Mode: packages.LoadAllSyntax, Dir: dir, Env: env, Tests: tests}, "./...")
	require.NoError(t, err)
	return pkgs
}

// TestTier3TypesAreFakeImportC: when cgo fails, go/packages type-checks the
// raw files and the failed import of "C" leaves a fake package, which gives
// every expression the type that types.Config.FakeImportC gives it. Triage
// relies on that instead of checking the package a second time.
func TestTier3TypesAreFakeImportC(t *testing.T) {
	t.Parallel()
	dir := module(t, map[string]map[string]string{"sdk": {"sdk.go": sdkSrc}})
	pkgs := load(t, dir, false)
	require.Len(t, pkgs, 1)
	p := pkgs[0]
	tr := driver.Classify(pkgs, driver.Options{Tier3: true})
	assert.Empty(t, tr.Errors)
	assert.Equal(t, []string{"example.com/m/sdk"}, tr.Degraded)
	require.Len(t, tr.Notes, 1)
	assert.Contains(t, tr.Notes[0], "example.com/m/sdk: note: cgo failed (")
	assert.Contains(t, tr.Notes[0], "no_such_sdk_header.h")
	assert.Equal(t, []*packages.Package{p}, tr.Analyzable)
	assert.False(t, p.IllTyped)
	assert.Empty(t, p.Errors, "nor the duplicate \"unknown\" map keys that C constants make")

	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, filepath.Join(dir, "sdk", "sdk.go"), nil, parser.ParseComments)
	require.NoError(t, err)
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}}
	_, err = (&types.Config{Importer: importer.Default(), FakeImportC: true}).Check("example.com/m/sdk", fset, []*ast.File{f}, info)
	require.NoError(t, err)
	want := map[string]string{}
	for e, tv := range info.Types {
		want[fset.Position(e.Pos()).String()+" "+types.ExprString(e)] = tv.Type.String()
	}
	got := map[string]string{}
	for e, tv := range p.TypesInfo.Types {
		got[p.Fset.Position(e.Pos()).String()+" "+types.ExprString(e)] = tv.Type.String()
	}
	assert.Equal(t, want, got)
}

// TestRunLines: a package with a Go type error is analyzable and printed
// once for it and its test variant; a package whose dependency fails to
// load is not analyzed and names that dependency; with tier 3 off, a cgo
// failure is an error printed once, on one line.
func TestRunLines(t *testing.T) {
	t.Parallel()
	dir := module(t, map[string]map[string]string{
		"sdk":      {"sdk.go": sdkSrc, "sdk_test.go": "package sdk\n\nimport \"testing\"\n\nfunc TestX(t *testing.T) {}\n"},
		"user":     {"user.go": "package user\n\nimport \"example.com/m/sdk\"\n\nvar N = sdk.Copy(nil, nil, 1)\n"},
		"typeerr":  {"typeerr.go": "package typeerr\n\nfunc F() int { return \"s\" }\n\nfunc G() int { return 1 }\n", "typeerr_test.go": "package typeerr\n\nimport \"testing\"\n\nfunc TestX(t *testing.T) {}\n"},
		"nogo":     {"nogo.go": "package nogo\n\nimport \"example.com/m/missing\"\n\nvar _ = missing.X\n"},
		"usenogo":  {"usenogo.go": "package usenogo\n\nimport _ \"example.com/m/nogo\"\n"},
		"parse":    {"parse.go": "package parse\n\nfunc F( {\n"},
		"useparse": {"useparse.go": "package useparse\n\nimport _ \"example.com/m/parse\"\n"},
	})
	pkgs := load(t, dir, true)
	tr := driver.Classify(pkgs, driver.Options{Tier3: true})
	analyzable := map[string]bool{}
	for _, p := range tr.Analyzable {
		analyzable[p.PkgPath] = true
	}
	assert.True(t, analyzable["example.com/m/sdk"])
	assert.True(t, analyzable["example.com/m/user"], "the importer of a tier-3 package loads")
	assert.True(t, analyzable["example.com/m/typeerr"], "a package with type errors is analyzed")
	assert.True(t, analyzable["example.com/m/nogo"], "an import not found: analyzed, like tier 3")
	assert.True(t, analyzable["example.com/m/usenogo"])
	assert.Equal(t, []string{"example.com/m/nogo"}, tr.Partial)
	assert.False(t, analyzable["example.com/m/parse"])
	assert.False(t, analyzable["example.com/m/useparse"])
	assert.Equal(t, []string{"example.com/m/sdk"}, tr.Degraded, "once, not again for the test variant")
	assert.Len(t, tr.Notes, 1)

	var typeerr, missing, nogo, parse, useparse int
	for _, l := range tr.Errors {
		assert.NotContains(t, l, "\n")
		switch {
		case strings.HasPrefix(l, "example.com/m/typeerr: "):
			typeerr++
			assert.Contains(t, l, `cannot use "s"`)
		case strings.HasPrefix(l, "example.com/m/missing: "):
			missing++
			assert.Contains(t, l, "no required module provides package example.com/m/missing")
		case strings.HasPrefix(l, "example.com/m/nogo: "):
			nogo++
		case strings.HasPrefix(l, "example.com/m/parse: "):
			parse++
		case strings.HasPrefix(l, "example.com/m/useparse: "):
			useparse++
			assert.Contains(t, l, "not analyzed: its dependency example.com/m/parse did not load: ")
			assert.Contains(t, l, "parse.go:3:9: expected")
		default:
			t.Errorf("unexpected line %q", l)
		}
	}
	assert.Equal(t, []int{1, 1, 1, 1, 1}, []int{typeerr, missing, nogo, parse, useparse}, "%q", tr.Errors)

	// Findings inside F, which holds the error, are dropped; G's stay.
	for _, p := range pkgs {
		if p.ID != "example.com/m/typeerr" {
			continue
		}
		touched := driver.TouchedByErrors(p)
		for _, d := range p.Syntax[0].Decls {
			fd := d.(*ast.FuncDecl)
			assert.Equal(t, fd.Name.Name == "F", touched(fd.Body.Lbrace), fd.Name.Name)
		}
	}

	// Tier 3 off (-headers=system): the cgo failure is an error, once.
	pkgs = load(t, dir, true)
	tr = driver.Classify(pkgs, driver.Options{})
	assert.Empty(t, tr.Notes)
	var sdk, user int
	for _, l := range tr.Errors {
		assert.NotContains(t, l, "\n")
		if strings.HasPrefix(l, "example.com/m/sdk: ") {
			sdk++
			assert.Contains(t, l, "no_such_sdk_header.h")
		}
		if strings.HasPrefix(l, "example.com/m/user: ") {
			user++
			assert.Contains(t, l, "not analyzed: its dependency example.com/m/sdk did not load: ")
			assert.NotContains(t, l, "could not import C")
		}
	}
	assert.Equal(t, []int{1, 1}, []int{sdk, user}, "%q", tr.Errors)
}

// Issue 16 item 14, through the triage every front end uses: go/packages
// cuts PkgPath at the first space of the ID; the error line names the
// package by its ID, without a test variant's suffix.
func TestErrorLineKeepsASpaceInThePath(t *testing.T) {
	t.Parallel()
	broken := []packages.Error{{Pos: "-", Msg: "broken", Kind: packages.ListError}}
	pkg := &packages.Package{ID: "example.com/sp/my pkg", PkgPath: "example.com/sp/my", GoFiles: []string{"x.go"}, Errors: broken}
	variant := &packages.Package{ID: "example.com/sp/my pkg [example.com/sp/my pkg.test]", PkgPath: "example.com/sp/my", GoFiles: []string{"x.go"}, Errors: broken}
	tr := driver.Classify([]*packages.Package{pkg, variant}, driver.Options{Tier3: true})
	assert.Equal(t, []string{"example.com/sp/my pkg: broken"}, tr.Errors)
	assert.Empty(t, tr.Analyzable)
}

// TestSyntaxErrorInCgoFileIsNoTier3Note: a syntax error in a file that
// imports "C" fails cgo too, but the package is not analyzed at tier 3: it
// does not parse. It gets its error line (the syntax error first), and no
// note saying it was analyzed from its Go files.
func TestSyntaxErrorInCgoFileIsNoTier3Note(t *testing.T) {
	t.Parallel()
	broken := strings.Replace(sdkSrc, "func Copy(dst", "func Copy dst", 1)
	dir := module(t, map[string]map[string]string{"sdk": {"sdk.go": broken}})
	tr := driver.Classify(load(t, dir, false), driver.Options{Tier3: true})
	assert.Empty(t, tr.Analyzable)
	assert.Empty(t, tr.Notes, "not analyzed: no note on how it was analyzed")
	assert.Empty(t, tr.Degraded)
	require.Len(t, tr.Errors, 1)
	assert.Regexp(t, `^example.com/m/sdk: .*sdk.go:12:11: expected '\(', found dst`, tr.Errors[0])
}

// TestErrorLineJoinsTypeErrorDetails: go/types reports where an
// instantiation cycle goes round as further errors whose message starts with
// a tab; they go on the first error's line, and only other errors are
// counted (was: "instantiation cycle: (and 1 more errors)").
func TestErrorLineJoinsTypeErrorDetails(t *testing.T) {
	t.Parallel()
	errs := []packages.Error{
		{Pos: "/m/a.go:6:8", Msg: "instantiation cycle:", Kind: packages.TypeError},
		{Pos: "/m/a.go:6:28", Msg: "\tT instantiated as A[T]", Kind: packages.TypeError},
		{Pos: "/m/b.go:3:1", Msg: "undefined: x", Kind: packages.TypeError},
	}
	pkg := &packages.Package{ID: "example.com/cyc", PkgPath: "example.com/cyc", GoFiles: []string{"/m/a.go"}, Errors: errs}
	rel := func(f string) string { return strings.TrimPrefix(f, "/m/") }
	tr := driver.Classify([]*packages.Package{pkg}, driver.Options{Tier3: true, Rel: rel})
	assert.Equal(t, []string{"example.com/cyc: a.go:6:8: instantiation cycle: a.go:6:28: T instantiated as A[T] (and 1 more errors)"}, tr.Errors)
}
