package synth

import (
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
	"golang.org/x/tools/go/packages"
)

// TestPreambleC: what a preamble's C code declares itself and what it
// uses undeclared, with the kind its use says.
func TestPreambleC(t *testing.T) {
	declared, uses := preambleC(`#include <cublas_v2.h>
#define GO_CUBLAS_OK 0
#define GO_MAX(a, b) ((a) > (b) ? (a) : (b))

// Needed to check for NULL from Cgo.
const char * go_cublas_null_message = NULL;

/* a comment: cublasFake_t x; */
const char * go_cublas_err(cublasStatus_t s) {
	switch (s) {
	case CUBLAS_STATUS_SUCCESS:
		return NULL;
	default:
		if (s == CUBLAS_STATUS_NOT_SUPPORTED) return "cublasInString_t y;";
		return "unknown";
	}
}
const cublasSideMode_t goCublasLeft = CUBLAS_SIDE_LEFT, goCublasRight = CUBLAS_SIDE_RIGHT;
cublasStatus_t go_create(cublasHandle_t *h, int n);
static int go_scale(cublasHandle_t h, float *x) {
	int k = CUBLAS_K * 2;
	cublasOperation_t op = (cublasOperation_t)CUBLAS_OP_N;
	return cublasSscal(h, k, x, 1, op);
}
typedef struct { cublasHandle_t h; int n; } go_wrapper;
typedef cublasFillMode_t go_fill;
struct go_node { int v; };
enum go_kind { GO_A, GO_B = CUBLAS_B, GO_C };
`)
	for _, n := range []string{"GO_CUBLAS_OK", "GO_MAX", "go_cublas_null_message", "go_cublas_err", "goCublasLeft",
		"goCublasRight", "go_create", "go_scale", "go_wrapper", "go_fill", "struct_go_node", "enum_go_kind", "GO_A", "GO_B", "GO_C"} {
		assert.True(t, declared[n], "%s is declared by the preamble", n)
	}
	for _, n := range []string{"cublasStatus_t", "CUBLAS_STATUS_SUCCESS", "s", "h", "x", "NULL", "cublasSscal", "cublasFake_t", "cublasInString_t"} {
		assert.False(t, declared[n], "%s is not declared at file scope", n)
	}
	want := map[string]kind{
		"cublasStatus_t": kindType, "cublasSideMode_t": kindType, "cublasHandle_t": kindType,
		"cublasOperation_t": kindType, "cublasFillMode_t": kindType,
		"CUBLAS_STATUS_SUCCESS": kindConst, "CUBLAS_STATUS_NOT_SUPPORTED": kindConst, "CUBLAS_SIDE_LEFT": kindConst, "CUBLAS_SIDE_RIGHT": kindConst,
		"CUBLAS_K": kindConst, "CUBLAS_OP_N": kindConst, "CUBLAS_B": kindConst,
		"cublasSscal": kindFunc,
	}
	for n, k := range want {
		got, ok := uses[n]
		if assert.True(t, ok, "%s is used", n) {
			assert.Equal(t, k, got, "%s", n)
		}
	}
	for _, n := range []string{"go_cublas_err", "goCublasLeft", "GO_MAX", "cublasFake_t", "cublasInString_t", "v"} {
		_, ok := uses[n]
		assert.False(t, ok, "%s: declared, in a comment or string, or a field", n)
	}
}

// TestStepPreambleHelper (unixpickle/cuda's cublas and curand): a
// preamble that includes a missing library header and defines its own
// helper with the library's types (go_lib_err(libStatus_t)), called from
// Go. cgo reports the helper unknown while the preamble does not compile:
// it must not be synthesized (a made-up int function clashes with the
// definition, and the package was given up); the library names the
// helper's definition uses are, in every file, from their use in the C
// code, and the result compiles.
func TestStepPreambleHelper(t *testing.T) {
	aPre := `#include <lib.h>

const char * go_lib_null = NULL;

const char * go_lib_err(libStatus_t s) {
	switch (s) {
	case LIB_STATUS_SUCCESS:
		return NULL;
	case LIB_STATUS_FAILED:
		return "LIB_STATUS_FAILED";
	default:
		return "unknown";
	}
}`
	bPre := `#include <lib.h>

const libSideMode_t goLibLeft = LIB_SIDE_LEFT;
static libHandle_t go_lib_id(libHandle_t h) { return (libHandle_t)h; }`
	files := map[string]string{
		"a.go": "package p\n\n/*\n" + aPre + "\n*/\nimport \"C\"\n\nfunc check(e C.libStatus_t) *C.char {\n\tif s := C.go_lib_err(e); s != C.go_lib_null {\n\t\treturn s\n\t}\n\treturn nil\n}\n",
		"b.go": "package p\n\n/*\n" + bPre + "\n*/\nimport \"C\"\n\nfunc left() C.libSideMode_t { return C.goLibLeft }\n",
	}
	p, fail := failedPackage(t, files)
	s := tempSynth(t)

	fail("p/a.go:4:10: fatal error: lib.h: No such file or directory\ncompilation terminated.\n")
	require.True(t, s.Step([]*packages.Package{p}, false))
	// As cgo reports the next load: the Go names of a.go, the helper
	// among them, and the first error of its preamble.
	fail("p/a.go:23:30: could not determine what C.libStatus_t refers to\n" +
		"p/a.go:24:10: could not determine what C.go_lib_err refers to\n" +
		"p/a.go:24:33: could not determine what C.go_lib_null refers to\n" +
		"gcc errors for preamble:\np/a.go:8:28: error: unknown type name 'libStatus_t'\n")
	require.True(t, s.Step([]*packages.Package{p}, false))
	_, gaveUp := s.gaveUp["example.com/p"]
	require.False(t, gaveUp, "%s", s.gaveUp["example.com/p"])
	ov, err := s.Overlay()
	require.NoError(t, err)
	header := func(file string) string {
		m := regexp.MustCompile(`#include "([^"]+)"`).FindSubmatch(ov[file])
		require.NotNil(t, m, "%s", ov[file])
		data, err := os.ReadFile(string(m[1]))
		require.NoError(t, err)
		return string(data)
	}
	a, b := header(p.GoFiles[0]), header(p.GoFiles[1])
	for _, own := range []string{"go_lib_err", "go_lib_null"} {
		assert.NotContains(t, a, own, "the preamble's own %s", own)
	}
	assert.Contains(t, a, "typedef int libStatus_t;")
	assert.Contains(t, a, "enum { LIB_STATUS_SUCCESS = ", "a case label of the helper, in the same round")
	assert.Contains(t, a, "enum { LIB_STATUS_FAILED = ")
	assert.Contains(t, b, "typedef int libSideMode_t;", "another file's preamble, in the same round")
	assert.Contains(t, b, "enum { LIB_SIDE_LEFT = ")
	assert.Contains(t, b, "typedef int libHandle_t;", "a type of a cast and a parameter")
	for _, own := range []string{"goLibLeft", "go_lib_id"} {
		assert.NotContains(t, b, own, "the preamble's own %s", own)
	}

	if _, err := exec.LookPath("cc"); err != nil {
		t.Skip("no C compiler")
	}
	for i, pre := range []string{aPre, bPre} {
		src := "#include <stddef.h>\n" + []string{a, b}[i] + strings.Replace(pre, "#include <lib.h>", "", 1) + "\n"
		cmd := exec.Command("cc", "-fsyntax-only", "-Werror=implicit-function-declaration", "-x", "c", "-")
		cmd.Stdin = strings.NewReader(src)
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s\n%s", src, out)
	}
}
