package synth

import (
	"bytes"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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
