package driver_test

import (
	"fmt"
	"go/ast"
	"go/types"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/hiplint/hiplint/analyzers"
	"github.com/hiplint/hiplint/internal/driver"
	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"
)

// The packages of TestFactSyntax's module. hw calls the runtime through
// cgo; wrap has no cgo and wraps hw's wrapper (facts across two packages);
// a leaks a module through wrap (a finding that needs both packages'
// facts), and imports pure (no cgo) and cpure (cgo, no runtime call), which
// produce no facts.
var factSyntaxModule = map[string]map[string]string{
	"hw": {"hw.go": `package hw

// #include <stdlib.h>
// #include <hip/hip_runtime.h>
import "C"

import (
	"errors"
	"unsafe"
)

type Module struct{ h C.hipModule_t }

func Load(path string) (*Module, error) {
	cpath := C.CString(path)
	defer C.free(unsafe.Pointer(cpath))
	m := &Module{}
	if C.hipModuleLoad(&m.h, cpath) != C.hipSuccess {
		return nil, errors.New("load failed")
	}
	return m, nil
}

func (m *Module) Function(name string) error {
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))
	var f C.hipFunction_t
	if C.hipModuleGetFunction(&f, m.h, cname) != C.hipSuccess {
		return errors.New("no such function")
	}
	return nil
}

func (m *Module) Unload() error {
	if C.hipModuleUnload(m.h) != C.hipSuccess {
		return errors.New("unload failed")
	}
	return nil
}
`},
	"wrap": {"wrap.go": `package wrap

import "example.com/m/hw"

func Open(path string) (*hw.Module, error) {
	m, err := hw.Load(path)
	if err != nil {
		return nil, err
	}
	return m, nil
}
`},
	"pure": {"pure.go": `package pure

import "strings"

func Upper(s string) string { return strings.ToUpper(s) }
`},
	"cpure": {"cpure.go": `package cpure

// static int add(int a, int b) { return a + b; }
import "C"

func Add(a, b int) int { return int(C.add(C.int(a), C.int(b))) }
`},
	"a": {"a.go": `package a

import (
	"example.com/m/cpure"
	"example.com/m/pure"
	"example.com/m/wrap"
)

func Leaky(path string) error {
	m, err := wrap.Open(path + pure.Upper("x") + string(rune(cpure.Add(1, 2))))
	if err != nil {
		return err
	}
	if err := m.Function("k"); err != nil {
		return err
	}
	return m.Unload()
}
`},
}

// factSyntaxDir is one copy of factSyntaxModule for the tests that only
// read it (factSyntaxCopy): the go command keys cgo's output and the
// packages' export data on their directory, so each copy ran cgo for hw
// and cpure and compiled the module's packages again.
var factSyntaxDir struct {
	once sync.Once
	dir  string
	err  error
}

// factSyntaxCopy returns the shared copy of factSyntaxModule. The tests
// that use it must not change its files (an overlay is no change).
func factSyntaxCopy(t *testing.T) string {
	t.Helper()
	factSyntaxDir.once.Do(func() {
		dir := filepath.Join(binaryTemp, "factsyntax")
		factSyntaxDir.dir, factSyntaxDir.err = dir, writeModule(dir, factSyntaxModule)
	})
	require.NoError(t, factSyntaxDir.err)
	return factSyntaxDir.dir
}

// includeEnv is the environment that gives cgo the repository's GPU
// headers (testdata/include), as bench/gen's modules use them.
func includeEnv(t *testing.T) []string {
	t.Helper()
	_, file, _, ok := runtime.Caller(0)
	require.True(t, ok)
	inc := filepath.Join(filepath.Dir(file), "..", "..", "testdata", "include")
	return append(os.Environ(), "GOFLAGS=", "CGO_CFLAGS=-I"+inc)
}

// findingLines formats findings as "file:line: category message".
func findingLines(dir string, fs []*driver.Finding) []string {
	var out []string
	for _, f := range fs {
		out = append(out, fmt.Sprintf("%s:%d: %s %s", strings.TrimPrefix(f.Posn.Filename, dir+"/"), f.Posn.Line, f.Diagnostic.Category, f.Diagnostic.Message))
	}
	return out
}

// loaded returns every package of the graph of res, by ID.
func loaded(res *driver.Result) map[string]*packages.Package {
	all := map[string]*packages.Package{}
	packages.Visit(res.Packages, nil, func(p *packages.Package) { all[p.ID] = p })
	return all
}

// checkedBodies reports whether p was type-checked with its function
// bodies: some identifier inside a body has an entry in Uses.
func checkedBodies(p *packages.Package) bool {
	if p.TypesInfo == nil {
		return false
	}
	for _, f := range p.Syntax {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			found := false
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				if id, ok := n.(*ast.Ident); ok && p.TypesInfo.Uses[id] != nil {
					found = true
				}
				return !found
			})
			if found {
				return true
			}
		}
	}
	return false
}

// TestFactSyntax: the packages that may produce or see facts (hw calls the
// runtime, wrap imports hw) are checked from syntax with their function
// bodies; the dependencies that cannot (pure, cpure) come from export
// data, without syntax; the findings are those of loading everything from
// syntax, where every dependency has its syntax.
func TestFactSyntax(t *testing.T) {
	t.Parallel()
	dir := factSyntaxCopy(t)
	env := includeEnv(t)
	run := func(all bool) *driver.Result {
		res, err := driver.Run(driver.Config{
			Analyzers: analyzers.Suite(),
			Checks:    analyzers.Checks(),
			Dir:       dir,
			Env:       env,
			Tests:     true,
			AllSyntax: all,
		}, "./a")
		require.NoError(t, err)
		require.Empty(t, res.Triage.Errors)
		require.Empty(t, res.Errors)
		return res
	}
	split, full := run(false), run(true)
	want := findingLines(dir, full.Findings)
	require.NotEmpty(t, want, "the leak through wrap and hw")
	assert.Equal(t, want, findingLines(dir, split.Findings))
	require.Len(t, split.Packages, 1, "only the package asked for is initial")
	assert.Equal(t, "example.com/m/a", split.Packages[0].ID)

	pkgs := loaded(split)
	for _, path := range []string{"a", "hw", "wrap"} {
		p := pkgs["example.com/m/"+path]
		require.NotNil(t, p, path)
		assert.True(t, checkedBodies(p), "%s: checked from syntax with its function bodies", path)
	}
	for _, path := range []string{"example.com/m/pure", "example.com/m/cpure", "strings", "errors"} {
		p := pkgs[path]
		require.NotNil(t, p, path)
		assert.Nil(t, p.Syntax, "%s: from export data", path)
		assert.Nil(t, p.TypesInfo, "%s: from export data", path)
		assert.NotNil(t, p.Types, "%s: has types", path)
	}
	for _, path := range []string{"example.com/m/pure", "strings"} {
		assert.NotNil(t, loaded(full)[path].Syntax, "%s: from syntax with AllSyntax", path)
	}
}

// factEverywhere exports a fact on every package: an analyzer that is not
// hiplint's, whose facts need every package from syntax.
type everywhereFact struct{}

func (*everywhereFact) AFact()         {}
func (*everywhereFact) String() string { return "everywhere" }

var factEverywhere = &analysis.Analyzer{
	Name:      "everywhere",
	Doc:       "test analyzer: a fact on every function of every package",
	FactTypes: []analysis.Fact{new(everywhereFact)},
	Run: func(pass *analysis.Pass) (any, error) {
		for _, f := range pass.Files {
			for _, d := range f.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok {
					if fn, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func); ok {
						pass.ExportObjectFact(fn, new(everywhereFact))
					}
				}
			}
		}
		return nil, nil
	},
}

// TestFactSyntaxFallsBack: where loading the other dependencies from export
// data could change what the analyzers see, the dependency is checked with
// its bodies in place (the test variant that may see facts, the dependency
// that does not compile: the others still come from export data), or every
// dependency is loaded from syntax, as with AllSyntax (a foreign analyzer
// with facts, a dependency at tier 3).
func TestFactSyntaxFallsBack(t *testing.T) {
	t.Parallel()
	t.Run("foreign analyzer with facts", func(t *testing.T) {
		t.Parallel()
		dir := factSyntaxCopy(t)
		res, err := driver.Run(driver.Config{
			Analyzers: append(analyzers.Suite(), factEverywhere),
			Dir:       dir,
			Env:       includeEnv(t),
		}, "./a")
		require.NoError(t, err)
		assert.NotNil(t, loaded(res)["example.com/m/pure"].Syntax)
	})

	// q calls the runtime; its test imports x, which imports q: go list
	// makes "x [q.test]", a test variant that no pattern names, and which
	// may see q's facts. It must be checked with its bodies.
	t.Run("test variant that may see facts", func(t *testing.T) {
		t.Parallel()
		dir := module(t, map[string]map[string]string{
			"q": {
				"q.go":               strings.Replace(factSyntaxModule["hw"]["hw.go"], "package hw", "package q", 1),
				"q_internal_test.go": "package q\n\nimport \"testing\"\n\nfunc TestLoad(t *testing.T) { Load(\"k\") }\n",
				"q_test.go":          "package q_test\n\nimport (\n\t\"testing\"\n\n\t\"example.com/m/x\"\n)\n\nfunc TestQ(t *testing.T) {\n\tm, err := x.Open(\"k\")\n\tif err != nil {\n\t\treturn\n\t}\n\tif err := m.Function(\"f\"); err != nil {\n\t\treturn\n\t}\n\tm.Unload()\n}\n",
			},
			"x":    {"x.go": "package x\n\nimport \"example.com/m/q\"\n\nfunc Open(path string) (*q.Module, error) {\n\tm, err := q.Load(path)\n\tif err != nil {\n\t\treturn nil, err\n\t}\n\treturn m, nil\n}\n"},
			"pure": factSyntaxModule["pure"],
		})
		split, full := splitAndFull(t, driver.Config{Dir: dir, Env: includeEnv(t), Tests: true}, "./q")
		require.Empty(t, split.Triage.Errors)
		require.Empty(t, full.Triage.Errors)
		require.NotEmpty(t, full.Findings, "the leak in q's external test, through x")
		assert.Equal(t, findingLines(dir, full.Findings), findingLines(dir, split.Findings))
		xq := loaded(split)["example.com/m/x [example.com/m/q.test]"]
		require.NotNil(t, xq)
		assert.True(t, checkedBodies(xq), "x [q.test] checked with its function bodies")
		assertFromExportData(t, split, "errors", "testing")
	})

	// pure does not compile (a type error): go list gives it no export
	// data, and go/packages would check it from syntax without function
	// bodies. The run loads everything from syntax, so that pure's errors
	// and the findings are those of a full load.
	t.Run("dependency that does not compile", func(t *testing.T) {
		t.Parallel()
		files := map[string]map[string]string{}
		for k, v := range factSyntaxModule {
			files[k] = v
		}
		files["pure"] = map[string]string{"pure.go": "package pure\n\nimport \"strings\"\n\nfunc Upper(s string) string {\n\tvar n int = \"x\"\n\treturn strings.ToUpper(s) + string(rune(n))\n}\n"}
		dir := module(t, files)
		run := func(all bool) *driver.Result {
			res, err := driver.Run(driver.Config{
				Analyzers: analyzers.Suite(),
				Checks:    analyzers.Checks(),
				Dir:       dir,
				Env:       includeEnv(t),
				AllSyntax: all,
			}, "./a")
			require.NoError(t, err)
			return res
		}
		split, full := run(false), run(true)
		require.NotEmpty(t, findingLines(dir, full.Findings), "the leak through wrap and hw")
		assert.Equal(t, findingLines(dir, full.Findings), findingLines(dir, split.Findings))
		assert.Equal(t, full.Triage.Errors, split.Triage.Errors)
		assert.Equal(t, full.Triage.Partial, split.Triage.Partial)
		pure := loaded(split)["example.com/m/pure"]
		require.NotNil(t, pure)
		require.NotEmpty(t, pure.Errors, "pure's type error")
		assert.True(t, checkedBodies(pure), "pure checked with its function bodies, as the full load checks it")
		assertFromExportData(t, split, "strings", "example.com/m/cpure")
	})

	// A dependency whose cgo step fails is analyzed at tier 3, where every
	// cgo package counts as calling the runtime; go list gives it no export
	// data.
	t.Run("dependency at tier 3", func(t *testing.T) {
		t.Parallel()
		dir := module(t, map[string]map[string]string{
			"sdk":  {"sdk.go": sdkSrc},
			"user": {"user.go": "package user\n\nimport (\n\t\"unsafe\"\n\n\t\"example.com/m/sdk\"\n)\n\nfunc Use(p unsafe.Pointer) int { return sdk.Copy(p, p, 1) }\n"},
		})
		run := func(all bool) *driver.Result {
			res, err := driver.Run(driver.Config{
				Analyzers:  analyzers.Suite(),
				Checks:     analyzers.Checks(),
				Dir:        dir,
				Env:        append(os.Environ(), "GOFLAGS="),
				ForceTier3: true,
				AllSyntax:  all,
			}, "./user")
			require.NoError(t, err)
			return res
		}
		split, full := run(false), run(true)
		assert.Equal(t, full.Triage.Degraded, split.Triage.Degraded)
		assert.Equal(t, full.Triage.Notes, split.Triage.Notes)
		assert.Equal(t, full.Triage.Errors, split.Triage.Errors)
		assert.Equal(t, findingLines(dir, full.Findings), findingLines(dir, split.Findings))
		sdk := loaded(split)["example.com/m/sdk"]
		require.NotNil(t, sdk)
		assert.True(t, checkedBodies(sdk), "sdk checked with its function bodies")
	})
}

// splitAndFull runs the suite (analyzers.Suite, analyzers.Checks) with cfg
// on patterns twice: as the driver loads (syntax only where facts can come
// from) and with AllSyntax.
func splitAndFull(t *testing.T, cfg driver.Config, patterns ...string) (split, full *driver.Result) {
	t.Helper()
	cfg.Analyzers, cfg.Checks = analyzers.Suite(), analyzers.Checks()
	for _, all := range []bool{false, true} {
		cfg.AllSyntax = all
		res, err := driver.Run(cfg, patterns...)
		require.NoError(t, err)
		if all {
			full = res
		} else {
			split = res
		}
	}
	return split, full
}

// assertFromExportData asserts that the packages of paths in res's graph
// came from export data: the run did not fall back to loading every
// dependency from syntax.
func assertFromExportData(t *testing.T, res *driver.Result, paths ...string) {
	t.Helper()
	all := loaded(res)
	for _, path := range paths {
		p := all[path]
		if assert.NotNil(t, p, path) {
			assert.Nil(t, p.Syntax, "%s: from export data", path)
		}
	}
}

// TestFactSyntaxTestVariantAboveFailedCgo: a test variant that no pattern
// names ("lib [core.test]": core's external test imports lib, which imports
// core) sits above a package whose cgo step fails (sdk includes a header
// the machine lacks; synthesis repairs it). go list gives the variant no
// export data, and go/packages checks it from syntax without bodies: it is
// checked again with them, in place, and every other dependency still
// comes from export data. zerfoo's layers/attention [layers/core.test],
// above its cuBLAS binding, made its whole load fall back to syntax (1.5
// GB and 28 s of CPU instead of 0.66 GB and 17 s).
func TestFactSyntaxTestVariantAboveFailedCgo(t *testing.T) {
	t.Parallel()
	dir := module(t, map[string]map[string]string{
		"sdk": {"sdk.go": sdkSrc},
		"core": {
			"core.go":               "package core\n\nfunc Name() string { return \"core\" }\n",
			"core_internal_test.go": "package core\n\nimport \"testing\"\n\nfunc TestName(t *testing.T) { _ = Name() }\n",
			"core_test.go":          "package core_test\n\nimport (\n\t\"testing\"\n\n\t\"example.com/m/lib\"\n)\n\nfunc TestLib(t *testing.T) { lib.Use(nil) }\n",
		},
		"lib": {"lib.go": "package lib\n\nimport (\n\t\"strings\"\n\t\"unsafe\"\n\n\t\"example.com/m/core\"\n\t\"example.com/m/sdk\"\n)\n\nfunc Use(p unsafe.Pointer) int { return sdk.Copy(p, p, len(strings.ToUpper(core.Name()))) }\n"},
	})
	split, full := splitAndFull(t, driver.Config{Dir: dir, Env: includeEnv(t), Tests: true}, "./...")
	assert.Equal(t, findingLines(dir, full.Findings), findingLines(dir, split.Findings))
	assert.Equal(t, full.Triage.Errors, split.Triage.Errors)
	assert.Equal(t, full.Triage.Degraded, split.Triage.Degraded)
	assert.Equal(t, full.Triage.Notes, split.Triage.Notes)
	variant := loaded(split)["example.com/m/lib [example.com/m/core.test]"]
	require.NotNil(t, variant, "go list makes the test variant")
	assert.Empty(t, variant.ExportFile, "no export data: sdk's cgo step failed")
	assert.True(t, checkedBodies(variant), "lib [core.test] checked with its function bodies")
	assertFromExportData(t, split, "strings", "testing")
	assert.NotNil(t, loaded(full)["strings"].Syntax, "strings from syntax with AllSyntax")
}

// TestFactSyntaxOverlay: under an overlay (unsaved buffers) the packages
// that may produce facts are still checked with their bodies, the file
// scanned being the overlay's: here the overlay makes pure call the
// runtime, which its file on disk does not.
func TestFactSyntaxOverlay(t *testing.T) {
	t.Parallel()
	dir := factSyntaxCopy(t)
	pureGo := filepath.Join(dir, "pure", "pure.go")
	overlay := map[string][]byte{pureGo: []byte(`package pure

// #include <hip/hip_runtime.h>
import "C"

import "strings"

func Upper(s string) string { C.hipDeviceSynchronize(); return strings.ToUpper(s) }
`)}
	run := func(all bool) *driver.Result {
		res, err := driver.Run(driver.Config{
			Analyzers: analyzers.Suite(),
			Dir:       dir,
			Env:       includeEnv(t),
			Overlay:   overlay,
			AllSyntax: all,
		}, "./a")
		require.NoError(t, err)
		require.Empty(t, res.Triage.Errors)
		return res
	}
	split, full := run(false), run(true)
	assert.Equal(t, findingLines(dir, full.Findings), findingLines(dir, split.Findings))
	assert.True(t, checkedBodies(loaded(split)["example.com/m/pure"]), "pure, as overlaid, checked with its bodies")
	assert.False(t, checkedBodies(loaded(split)["example.com/m/cpure"]), "cpure needs no bodies")
}

// TestFactSyntaxScan: which files make their package one that may call the
// runtime.
func TestFactSyntaxScan(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, src string
		want      bool
	}{
		{"runtime call", "package p\n\n// #include <hip/hip_runtime.h>\nimport \"C\"\n\nfunc F() { C.hipDeviceSynchronize() }\n", true},
		{"CUDA runtime call", "package p\n\n// #include <cuda_runtime.h>\nimport \"C\"\n\nfunc F() { C.cudaFree(nil) }\n", true},
		{"other C call", "package p\n\n// static int f(void) { return 1; }\nimport \"C\"\n\nfunc F() int { return int(C.f()) }\n", false},
		{"C types only", "package p\n\n// #include <hip/hip_runtime.h>\nimport \"C\"\n\nvar S C.hipStream_t\n", false},
		{"no cgo", "package p\n\nimport \"strings\"\n\nfunc F() string { return strings.ToUpper(\"hipMalloc\") }\n", false},
		{"cgo's own name", "package p\n\nimport \"unsafe\"\n\nfunc _Cfunc_hipFree(p unsafe.Pointer) int32 { return 0 }\n", true},
		{"syntax error", "package p\n\nimport \"C\"\n\nfunc F( {\n", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, driver.FileCallsRuntime(tc.name+".go", []byte(tc.src)))
		})
	}
}

// TestFactSyntaxHeadersUsed: a dependency loaded from export data whose cgo
// preamble includes a header hiplint serves still counts for
// Result.HeadersUsed (the note that hiplint's declarations were used):
// types from export data do not say that the package used cgo.
func TestFactSyntaxHeadersUsed(t *testing.T) {
	t.Parallel()
	dir := module(t, map[string]map[string]string{
		"cinc": {"cinc.go": `package cinc

// #include <hip/hip_runtime.h>
// static int add(int a, int b) { return a + b; }
import "C"

func Add(a, b int) int { return int(C.add(C.int(a), C.int(b))) }
`},
		"a": {"a.go": "package a\n\nimport \"example.com/m/cinc\"\n\nfunc A() int { return cinc.Add(1, 2) }\n"},
	})
	for _, all := range []bool{false, true} {
		res, err := driver.Run(driver.Config{
			Analyzers:      analyzers.Suite(),
			Dir:            dir,
			Env:            includeEnv(t),
			MissingHeaders: []string{"cuda.h", "hip/hip_runtime.h"},
			AllSyntax:      all,
		}, "./a")
		require.NoError(t, err)
		require.Empty(t, res.Triage.Errors)
		assert.Equal(t, []string{"hip/hip_runtime.h"}, res.HeadersUsed, "AllSyntax %v", all)
		assert.Equal(t, all, loaded(res)["example.com/m/cinc"].Syntax != nil, "AllSyntax %v: cinc from syntax", all)
	}
}

// TestFactSyntaxScanReadsCgoPackages: the scan reads the files of the
// dependencies that may use cgo only. decoy declares a function named as
// cgo names its wrapper of hipFree, but does not use cgo, so that
// cgocall.CallsRuntime is false for it: it comes from export data, and the
// findings are those of loading everything from syntax.
func TestFactSyntaxScanReadsCgoPackages(t *testing.T) {
	t.Parallel()
	dir := module(t, map[string]map[string]string{
		"hw":   factSyntaxModule["hw"],
		"wrap": factSyntaxModule["wrap"],
		"decoy": {"decoy.go": `package decoy

import "unsafe"

func _Cfunc_hipFree(p unsafe.Pointer) int32 { return 0 }

func Name() string { _Cfunc_hipFree(nil); return "k" }
`},
		"a": {"a.go": `package a

import (
	"example.com/m/decoy"
	"example.com/m/wrap"
)

func Leaky(path string) error {
	m, err := wrap.Open(path + decoy.Name())
	if err != nil {
		return err
	}
	if err := m.Function("k"); err != nil {
		return err
	}
	return m.Unload()
}
`},
	})
	run := func(all bool) *driver.Result {
		res, err := driver.Run(driver.Config{
			Analyzers: analyzers.Suite(),
			Checks:    analyzers.Checks(),
			Dir:       dir,
			Env:       includeEnv(t),
			AllSyntax: all,
		}, "./a")
		require.NoError(t, err)
		require.Empty(t, res.Triage.Errors)
		return res
	}
	split, full := run(false), run(true)
	require.NotEmpty(t, full.Findings, "the leak through wrap and hw")
	assert.Equal(t, findingLines(dir, full.Findings), findingLines(dir, split.Findings))
	pkgs := loaded(split)
	assert.Nil(t, pkgs["example.com/m/decoy"].Syntax, "decoy from export data")
	assert.True(t, checkedBodies(pkgs["example.com/m/wrap"]), "wrap checked with its bodies")
	assert.True(t, checkedBodies(pkgs["example.com/m/hw"]), "hw checked with its bodies")
}
