package synth

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
	"golang.org/x/tools/go/packages"
)

const useSrc = `package p

/*
#include <hip/hip_runtime_api.h>
#include <cublas_v2.h>
*/
import "C"

import (
	"errors"
	"unsafe"
)

type Handle struct {
	h      C.cublasHandle_t
	stream C.hipStream_t
}

func status(s C.cublasStatus_t) error {
	if s != C.CUBLAS_STATUS_SUCCESS {
		return errors.New("cublas")
	}
	return nil
}

func New() (*Handle, error) {
	h := &Handle{}
	if err := status(C.cublasCreate(&h.h)); err != nil {
		return nil, err
	}
	C.cublasSetStream(h.h, h.stream)
	return h, nil
}

func (h *Handle) Scale(x unsafe.Pointer, n int, alpha float32) C.cublasStatus_t {
	return C.cublasSscal(h.h, C.int(n), (*C.float)(unsafe.Pointer(&alpha)), (*C.float)(x), 1)
}

func (h *Handle) Valid() bool { return h.h != nil }

func op() C.cublasOperation_t { return C.cublasOperation_t(C.CUBLAS_OP_T) }
`

// checkFake type-checks src as go/packages does when cgo fails (tier 3).
func checkFake(t *testing.T, src string) (*types.Info, []*ast.File) {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, parser.ParseComments)
	require.NoError(t, err)
	info := &types.Info{
		Types:      map[ast.Expr]types.TypeAndValue{},
		Defs:       map[*ast.Ident]types.Object{},
		Uses:       map[*ast.Ident]types.Object{},
		Selections: map[*ast.SelectorExpr]*types.Selection{},
	}
	conf := types.Config{Importer: importer.Default(), FakeImportC: true}
	_, err = conf.Check("p", fset, []*ast.File{f}, info)
	require.NoError(t, err)
	return info, []*ast.File{f}
}

// TestInferDeclarations: each name gets the kind and C types its use in Go
// calls for.
func TestInferDeclarations(t *testing.T) {
	info, files := checkFake(t, useSrc)
	names := []string{"cublasHandle_t", "cublasStatus_t", "CUBLAS_STATUS_SUCCESS", "cublasCreate",
		"cublasSetStream", "cublasSscal", "cublasOperation_t", "CUBLAS_OP_T"}
	decls := infer(info, files, names, nil)
	got := text(decls, names, nil)
	for _, want := range []string{
		// compared with nil: a pointer type
		"typedef struct hiplint_synth_cublasHandle_t *cublasHandle_t;\n",
		"typedef int cublasStatus_t;\n",
		"typedef int cublasOperation_t;\n", // a conversion of a constant: an integer type
		"enum { CUBLAS_OP_T = 0x7eadb000 };\n",
		"enum { CUBLAS_STATUS_SUCCESS = 0x7eadb001 };\n",
		// the result goes to a cublasStatus_t parameter; the argument is
		// the address of a field declared C.cublasHandle_t
		"cublasStatus_t cublasCreate(cublasHandle_t*);\n",
		"int cublasSetStream(cublasHandle_t, hipStream_t);\n",
		// returned where the result is C.cublasStatus_t; the untyped
		// constant argument is an int
		"cublasStatus_t cublasSscal(cublasHandle_t, int, float*, float*, int);\n",
	} {
		assert.Contains(t, got, want)
	}
	// Types before the functions that use them.
	assert.Less(t, strings.Index(got, "typedef struct hiplint_synth_cublasHandle_t"), strings.Index(got, "cublasCreate("))
}

// TestInferOnlyWhatIsAsked: a file's declarations are its unknown names and
// the synthesized types their declarations use, nothing else.
func TestInferOnlyWhatIsAsked(t *testing.T) {
	info, files := checkFake(t, useSrc)
	all := []string{"cublasHandle_t", "cublasStatus_t", "cublasCreate", "cublasSscal"}
	decls := infer(info, files, all, nil)
	got := text(decls, []string{"cublasCreate"}, nil)
	assert.Contains(t, got, "cublasCreate(")
	assert.Contains(t, got, "cublasHandle_t;", "its parameter's type comes along")
	assert.Contains(t, got, "cublasStatus_t;", "its result's type comes along")
	assert.NotContains(t, got, "cublasSscal")
}

// TestRewriteKeepsLines: rewritten preamble lines stay on their lines, in
// both comment forms, so positions in the Go code do not move.
func TestRewriteKeepsLines(t *testing.T) {
	for _, src := range []string{
		"package p\n\n// #include <a.h>\n// #include <cublas_v2.h>\n//\n// static int x;\nimport \"C\"\n\nvar v = 1\n",
		"package p\n\n/*\n#include <a.h>\n#include <cublas_v2.h>\n\nstatic int x;\n*/\nimport \"C\"\n\nvar v = 1\n",
	} {
		lines, importsC := preamble([]byte(src))
		require.True(t, importsC)
		incs, depth := includeLines(lines)
		require.Len(t, incs, 2)
		assert.Equal(t, []int{0, 0}, depth)
		name, angle, ok := includeName(incs[1].text)
		assert.True(t, ok && angle)
		assert.Equal(t, "cublas_v2.h", name)
		out := rewrite([]byte(src), lines, map[int]string{incs[0].line: `#include "/x/y/hiplint_synth.h"`, incs[1].line: ""})
		assert.Equal(t, strings.Count(src, "\n"), bytes.Count(out, []byte("\n")))
		assert.NotContains(t, string(out), "cublas_v2.h")
		assert.Contains(t, string(out), `#include "/x/y/hiplint_synth.h"`)
		assert.True(t, strings.HasSuffix(string(out), "import \"C\"\n\nvar v = 1\n"))
		_, err := parser.ParseFile(token.NewFileSet(), "p.go", out, 0)
		assert.NoError(t, err)
	}
}

// TestParseFailure reads the failures synthesis repairs from cgo's output
// and leaves the others to tier 3.
func TestParseFailure(t *testing.T) {
	f := parseFailure("# example.com/p\np/p.go:4:11: fatal error: cublas_v2.h: No such file or directory\n    4 | // #include <cublas_v2.h>\n      |           ^~~~~~~~~~~~~\ncompilation terminated.\n")
	assert.Equal(t, []fileLine{{file: "p/p.go", line: 4, name: "cublas_v2.h"}}, f.missing)
	assert.True(t, f.repairable())

	f = parseFailure("# example.com/p\np/p.go:15:19: could not determine what C.CUBLAS_OP_N refers to\np/p.go:11:8: could not determine kind of name for C.cublasCreate\n")
	assert.Equal(t, map[string][]string{"p/p.go": {"CUBLAS_OP_N", "cublasCreate"}}, f.unknown)
	assert.True(t, f.repairable())

	f = parseFailure("# example.com/p\np/p.go:9:16: error: redefinition of 'struct hipMemAllocNodeParams'\n")
	assert.False(t, f.repairable())

	// A missing header included by one of the package's own headers:
	// the include cannot be rewritten.
	f = parseFailure("# example.com/p\nIn file included from p/p.go:3:\np/own.h:1:10: fatal error: cudnn.h: No such file or directory\n")
	assert.False(t, f.repairable())

	f = parseFailure("# example.com/p\np/p.go:8:3: error: unknown type name 'cublasHandle_t'\n")
	assert.Equal(t, map[string]map[string]kind{"p/p.go": {"cublasHandle_t": kindType}}, f.inC)
}

// TestInferFromCgoHelpersAndConversions: the corpus's misses (docs/corpus.md,
// 2026-12-07): a function whose result C.GoString reads returns a char
// pointer (zerfoo's cudnnGetErrorString, ncclGetErrorString), and a
// one-argument call of C's own type words or an integer type's name is a
// conversion (C.bool(x), C.rocblas_int(n)), not a function.
func TestInferFromCgoHelpersAndConversions(t *testing.T) {
	const src = `package p

import "C"

func msg(s C.int) string { return C.GoString(C.cudnnGetErrorString(s)) }

func flags(b bool, n int) { use(C.bool(b), C.rocblas_int(n)) }

func use(...any) {}
`
	info, files := checkFake(t, src)
	names := []string{"cudnnGetErrorString", "bool", "rocblas_int"}
	got := text(infer(info, files, names, nil), names, nil)
	assert.Contains(t, got, "const char* cudnnGetErrorString(")
	assert.NotContains(t, got, " bool(")
	assert.NotContains(t, got, "rocblas_int(")
	assert.Contains(t, got, "typedef int rocblas_int;")
}

// TestInferConversionOfGoValue: a one-argument call of a C name whose
// argument has a Go type can only be a conversion (cgo lets no C function
// take a Go value): mumax's C.cufftType(typ), zerfoo's
// C.cudaDataType(bType), whose names do not look like types.
func TestInferConversionOfGoValue(t *testing.T) {
	const src = `package p

import "C"

type Type int

func plan(n int, typ Type) C.int {
	var h C.cufftHandle
	return C.cufftPlan1d(&h, C.int(n), C.cufftType(typ), 1)
}
`
	info, files := checkFake(t, src)
	names := []string{"cufftHandle", "cufftPlan1d", "cufftType"}
	got := text(infer(info, files, names, nil), names, nil)
	assert.Contains(t, got, "typedef int cufftType;")
	assert.NotContains(t, got, " cufftType(")
	assert.Contains(t, got, "int cufftPlan1d(cufftHandle*, int, cufftType, int);")
}

// TestInferCgoHelpersAndSlices: C.CString's result is a char pointer, not
// a type named CString (gorgonia/cu's nvrtc); a nil argument types a
// parameter only until another call passes something better, and the
// address of an element of make([]*C.char, n) is a char**.
func TestInferCgoHelpersAndSlices(t *testing.T) {
	const src = `package p

import "C"

func create(p *C.nvrtcProgram, src, name string, headers []string) {
	C.nvrtcCreateProgram(p, C.CString(src), C.CString(name), 0, nil, nil)
	hs := make([]*C.char, len(headers))
	C.nvrtcCreateProgram(p, C.CString(src), C.CString(name), C.int(len(hs)), &hs[0], &hs[0])
}
`
	info, files := checkFake(t, src)
	names := []string{"nvrtcProgram", "nvrtcCreateProgram"}
	got := text(infer(info, files, names, nil), names, nil)
	assert.Contains(t, got, "int nvrtcCreateProgram(nvrtcProgram*, char*, char*, int, char**, char**);")
	assert.NotContains(t, got, "CString")
}

// TestInferUndeclaredTypeOfTheLibrary: a type a declaration uses that cgo
// did not report (it stopped before) is declared when it belongs to the
// library of the names it did: gorgonia/cu's nvrtcResult.
func TestInferUndeclaredTypeOfTheLibrary(t *testing.T) {
	const src = `package p

import "C"

func compile(p C.nvrtcProgram) C.nvrtcResult { return C.nvrtcCompileProgram(p, 0, nil) }

func size(n C.size_t) C.size_t { return C.nvrtcGetPTXSize(n) }
`
	info, files := checkFake(t, src)
	names := []string{"nvrtcProgram", "nvrtcCompileProgram", "nvrtcGetPTXSize"}
	got := text(infer(info, files, names, nil), names, nil)
	assert.Contains(t, got, "typedef int nvrtcResult;")
	assert.Contains(t, got, "nvrtcResult nvrtcCompileProgram(nvrtcProgram, int, void*);")
	assert.NotContains(t, got, "typedef int size_t;", "not the library's: a standard type")
	assert.Equal(t, "nvrtc", family("nvrtcResult"))
	assert.Equal(t, "cufft", family("CUFFT_R2C"))
	assert.Equal(t, "", family("free"))
}

// TestParseFailureOwnHeader: the names a header of the package's own
// lacks (it uses the missing library's types: gorgonia/cu's dnn) go to the
// Go file that includes it.
func TestParseFailureOwnHeader(t *testing.T) {
	f := parseFailure("# example.com/dnn\ncgo: \ncc errors for preamble:\nIn file included from dnn/convolution.go:4:\n./convolution.h:1:8: error: unknown type name 'cudnnStatus_t'\n./convolution.h:2:9: error: unknown type name 'cudnnMathType_t'\n")
	assert.Equal(t, map[string]map[string]kind{"dnn/convolution.go": {"cudnnStatus_t": kindType, "cudnnMathType_t": kindType}}, f.inC)
	assert.True(t, f.repairable())
	// A system header's error is not the package's to repair.
	f = parseFailure("# example.com/dnn\nIn file included from dnn/convolution.go:4:\n/usr/include/x.h:1:8: error: unknown type name 'foo_t'\n")
	assert.False(t, f.repairable())
}

// TestStepWholePackage: cgo stops at the first file that fails, so one
// round repairs every file of the package alike: a missing header is
// stubbed in every file that includes it (mumax's cufft includes
// <cufft.h> in four files, one per round before), and once some of a
// library's names are unknown, the other files' names of that library are
// declared too, where the package's own C does not spell them.
func TestStepWholePackage(t *testing.T) {
	files := map[string]string{
		"a.go": "package p\n\n// #include <lib.h>\nimport \"C\"\n\nfunc Open() C.libStatus_t {\n\tvar h C.libHandle_t\n\treturn C.libOpen(&h)\n}\n",
		"b.go": "package p\n\n// #include <lib.h>\n// static int libOwn(void) { return 0; }\nimport \"C\"\n\nfunc Close(h C.libHandle_t) { C.libClose(h); C.libOwn() }\n",
	}
	p, fail := failedPackage(t, files)
	s := tempSynth(t)

	fail("p/a.go:3:10: fatal error: lib.h: No such file or directory\ncompilation terminated.\n")
	require.True(t, s.Step([]*packages.Package{p}, false))
	ov, err := s.Overlay()
	require.NoError(t, err)
	for _, f := range p.GoFiles {
		require.Contains(t, ov, f)
		assert.NotContains(t, string(ov[f]), "lib.h", "%s: its include is stubbed in the same round", f)
	}

	// Only a.go's names are reported: b.go's of the same library come along.
	fail("p/a.go:7:8: could not determine what C.libHandle_t refers to\np/a.go:8:9: could not determine what C.libOpen refers to\n")
	require.True(t, s.Step([]*packages.Package{p}, false))
	ov, err = s.Overlay()
	require.NoError(t, err)
	header := func(file string) string {
		m := regexp.MustCompile(`#include "([^"]+)"`).FindSubmatch(ov[file])
		require.NotNil(t, m, "%s", ov[file])
		data, err := os.ReadFile(string(m[1]))
		require.NoError(t, err)
		return string(data)
	}
	b := header(p.GoFiles[1])
	assert.Contains(t, b, "int libClose(libHandle_t);")
	assert.Contains(t, b, "typedef int libHandle_t;")
	assert.NotContains(t, b, "libOwn", "the preamble's own function")
	assert.Contains(t, header(p.GoFiles[0]), "typedef int libStatus_t;", "a type of the library its function returns")
}

type cImporter struct{}

func (cImporter) Import(path string) (*types.Package, error) {
	if path == "C" {
		return nil, fmt.Errorf("no metadata for C")
	}
	return importer.Default().Import(path)
}

// TestStepEmptiesCSources: a C source of the package's own that includes
// the missing header (gorgonia/cu dnn's algorithm.c and convolution.c)
// cannot be declared from Go's use: it is emptied in the overlay, with
// every other C source of the package that includes the same header, in
// one round; a C source that does not include it is kept, and giving the
// package up restores them all.
func TestStepEmptiesCSources(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "p")
	require.NoError(t, os.Mkdir(dir, 0o755))
	goSrc := "package p\n\n// #include <lib.h>\n// #include \"own.h\"\nimport \"C\"\n\nfunc New() C.libStatus_t { return C.ownNew() }\n"
	others := map[string]string{
		"own.h":   "libStatus_t ownNew(void);\n",
		"own.c":   "#include <lib.h>\n#include \"own.h\"\n\nlibStatus_t ownNew(void) { libThing_t t; t.field = 1; return libNew(&t); }\n",
		"more.c":  "#include \"own.h\"\n#include <lib.h>\n",
		"plain.c": "int plain(void) { return 0; }\n",
	}
	goFile := filepath.Join(dir, "p.go")
	require.NoError(t, os.WriteFile(goFile, []byte(goSrc), 0o644))
	var otherFiles []string
	for name, src := range others {
		path := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(path, []byte(src), 0o644))
		otherFiles = append(otherFiles, path)
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, goFile, goSrc, parser.ParseComments)
	require.NoError(t, err)
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{},
		Uses: map[*ast.Ident]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{}}
	conf := types.Config{Importer: cImporter{}, Error: func(error) {}}
	tpkg, _ := conf.Check("example.com/p", fset, []*ast.File{f}, info)
	p := &packages.Package{ID: "example.com/p", PkgPath: "example.com/p", Name: "p", GoFiles: []string{goFile},
		OtherFiles: otherFiles, Fset: fset, Syntax: []*ast.File{f}, Types: tpkg, TypesInfo: info}
	fail := func(out string) {
		p.Errors = []packages.Error{{Msg: "# example.com/p\n" + out, Kind: packages.ListError}}
	}
	gen := t.TempDir()
	n := 0
	s := New(nil, func(string) bool { return false }, func(name string, data []byte) (string, error) {
		n++
		path := filepath.Join(gen, fmt.Sprint(n), name)
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		return path, os.WriteFile(path, data, 0o644)
	})

	// The preamble's include is stubbed first; then the C source fails.
	fail("p/p.go:3:10: fatal error: lib.h: No such file or directory\ncompilation terminated.\n")
	require.True(t, s.Step([]*packages.Package{p}, false))
	fail("own.c:1:10: fatal error: lib.h: No such file or directory\ncompilation terminated.\n")
	require.True(t, s.Step([]*packages.Package{p}, false))
	ov, err := s.Overlay()
	require.NoError(t, err)
	for _, name := range []string{"own.c", "more.c"} {
		got, ok := ov[filepath.Join(dir, name)]
		require.True(t, ok, "%s is emptied", name)
		assert.NotContains(t, string(got), "#include", name)
		assert.Contains(t, string(got), "lib.h", "%s: says why", name)
	}
	assert.NotContains(t, ov, filepath.Join(dir, "plain.c"), "it does not include the header")
	assert.NotContains(t, ov, filepath.Join(dir, "own.h"), "a header is not compiled on its own")

	// Rescued: the note names the emptied sources.
	p.Errors = nil
	rs := s.Rescued([]*packages.Package{p})
	require.Len(t, rs, 1)
	assert.Equal(t, []string{"more.c", "own.c"}, rs[0].Emptied)
	assert.Contains(t, rs[0].Note(), "emptied its C sources more.c, own.c")

	// A C file the package does not have is not repaired.
	fail("other/x.c:1:10: fatal error: lib.h: No such file or directory\n")
	s2 := New(nil, func(string) bool { return false }, s.generate)
	assert.False(t, s2.emptySources(p, "other/x.c", "lib.h"))

	// Giving up restores every file.
	s.giveUp(p.PkgPath, "test")
	ov, err = s.Overlay()
	require.NoError(t, err)
	assert.Empty(t, ov)
}

// TestInferStandardTypeNames: a standard C type name cgo could not resolve
// (the library header that would have brought <stdbool.h> is stubbed) is
// declared by including its standard header, never by a typedef: bool is a
// macro of <stdbool.h>, and "typedef int bool;" did not compile once the
// runtime's header had brought it (zerfoo's miopen).
func TestInferStandardTypeNames(t *testing.T) {
	const src = `package p

import "C"

func set(b bool, n int) {
	C.miopenSetFlag(C.bool(b), C.size_t(n), C.uint32_t(n))
	C.miopenFind(C.int(n), false) // an untyped bool: a bool parameter
}
`
	info, files := checkFake(t, src)
	names := []string{"bool", "size_t", "uint32_t", "miopenSetFlag", "miopenFind"}
	got := text(infer(info, files, names, nil), names, nil)
	assert.Contains(t, got, "#include <stdbool.h>\n")
	assert.Contains(t, got, "#include <stddef.h>\n")
	assert.Contains(t, got, "#include <stdint.h>\n")
	assert.NotContains(t, got, "typedef int bool;")
	assert.NotContains(t, got, "typedef int size_t;")
	assert.Contains(t, got, "int miopenSetFlag(bool, size_t, uint32_t);")
	assert.Contains(t, got, "int miopenFind(int, bool);")
	only := text(infer(info, files, []string{"miopenFind"}, nil), []string{"miopenFind"}, nil)
	assert.Contains(t, only, "#include <stdbool.h>\n", "bool is used, not declared")
	// It compiles with the runtime's headers before it, which bring them.
	if _, err := exec.LookPath("cc"); err != nil {
		t.Skip("no C compiler")
	}
	cc := exec.Command("cc", "-fsyntax-only", "-x", "c", "-")
	cc.Stdin = strings.NewReader("#include <stdbool.h>\n#include <stdint.h>\n" + got)
	out, err := cc.CombinedOutput()
	assert.NoError(t, err, "%s\n%s", got, out)
}

// TestInferGoFunctionResults: an argument declared from the result of a Go
// function of the package has the C type that function declares, one
// result or one of several (gorgonia/cu dnn: ptr, m := ints2CIntPtr(a)
// passed where cudnnGetConvolutionNdForwardOutputDim takes an int*).
func TestInferGoFunctionResults(t *testing.T) {
	const src = `package p

import "C"

func ints2CPtr(a []int) (*C.int, any) { return nil, nil }

func one() *C.float { return nil }

func dims(a []int) {
	ptr, managed := ints2CPtr(a)
	_ = managed
	f := one()
	C.libOutputDims(C.int(len(a)), ptr, f)
}
`
	info, files := checkFake(t, src)
	names := []string{"libOutputDims"}
	got := text(infer(info, files, names, nil), names, nil)
	assert.Contains(t, got, "int libOutputDims(int, int*, float*);")
}

// TestInferStandardFunctions: a standard C function cgo could not resolve
// (C.free once cudago's <nvrtc.h>, which brought <stdlib.h>, is stubbed)
// comes from its standard header, not a made-up prototype that clashes
// with it.
func TestInferStandardFunctions(t *testing.T) {
	const src = `package p

import (
	"unsafe"
)

import "C"

func release(p *C.char) { C.free(unsafe.Pointer(p)) }
`
	info, files := checkFake(t, src)
	names := []string{"free"}
	got := text(infer(info, files, names, nil), names, nil)
	assert.Contains(t, got, "#include <stdlib.h>\n")
	assert.NotContains(t, got, "free(")
}
