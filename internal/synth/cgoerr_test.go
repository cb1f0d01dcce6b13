package synth

import (
	"maps"
	"slices"
	"testing"

	"golang.org/x/tools/go/packages"

	"github.com/hiplint/hiplint/internal/testenv/assert"
)

func TestParseFailurePlatform(t *testing.T) {
	out := "# example.com/p\nIn file included from p/platform.go:7:\n/usr/include/hip/hip_runtime_api.h:6711:2: error: #error (\"Must define exactly one of __HIP_PLATFORM_AMD__ or __HIP_PLATFORM_NVIDIA__\");\n 6711 | #error(\"Must define exactly one of __HIP_PLATFORM_AMD__ or __HIP_PLATFORM_NVIDIA__\");\n      |  ^~~~~\n"
	f := parseFailure(out)
	assert.Equal(t, "", f.other)
	if assert.NotNil(t, f.platform) {
		assert.Equal(t, fileLine{file: "p/platform.go", line: 7}, *f.platform)
	}
}

// TestParseFailurePlatformAbbreviatedChain: through hip_runtime.h gcc stops
// at four platform #errors and names the include chain in full only for the
// first; the next ones say "In file included from hip_runtime.h:113:". Each
// is the same preamble line's failure (was: the second made the package
// unrepairable, and a package including hip_runtime.h fell to tier 3).
func TestParseFailurePlatformAbbreviatedChain(t *testing.T) {
	const e = `error: #error ("Must define exactly one of __HIP_PLATFORM_AMD__ or __HIP_PLATFORM_NVIDIA__");`
	out := "# example.com/p\n" +
		"In file included from p/a.go:3:\n" +
		"/usr/include/hip/hip_runtime.h:66:2: " + e + "\n" +
		"   66 | #error(\"Must define exactly one of __HIP_PLATFORM_AMD__ or __HIP_PLATFORM_NVIDIA__\");\n" +
		"      |  ^~~~~\n" +
		"In file included from /usr/include/hip/hip_runtime.h:113:\n" +
		"/usr/include/hip/hip_runtime_api.h:6711:2: " + e + "\n" +
		"In file included from /usr/include/hip/hip_runtime.h:114:\n" +
		"/usr/include/hip/library_types.h:48:2: " + e + "\n"
	f := parseFailure(out)
	assert.Equal(t, "", f.other)
	if assert.NotNil(t, f.platform) {
		assert.Equal(t, fileLine{file: "p/a.go", line: 3}, *f.platform)
	}
	// A chain whose outer header was never named in full stays unrepairable.
	g := parseFailure("# example.com/p\nIn file included from /usr/include/hip/hip_runtime.h:113:\n/usr/include/hip/hip_runtime_api.h:6711:2: " + e + "\n")
	assert.Nil(t, g.platform)
	assert.NotEqual(t, "", g.other)
}

// TestTypeErrorsAboutC: only a type error that involves C (a cgo-made name in
// the message, or C. on its source line) is a sign that a synthesized
// declaration does not fit; an error of the package's own Go code (an
// instantiation cycle) is not (was: it gave up a package whose only cgo
// trouble was HIP's platform macro, which then fell to tier 3).
func TestTypeErrorsAboutC(t *testing.T) {
	src := "package p\n\ntype A[T any] struct{ a *A[A[T]] }\n\nfunc f() { C.hipFoo(1, 2) }\n"
	s := New(map[string][]byte{"/m/p.go": []byte(src)}, nil, nil)
	p := &packages.Package{Errors: []packages.Error{
		{Pos: "/m/p.go:3:6", Msg: "instantiation cycle:", Kind: packages.TypeError},
		{Pos: "/m/p.go:3:26", Msg: "\tT instantiated as A[T]", Kind: packages.TypeError},
		{Pos: "/m/p.go:5:24", Msg: "too many arguments in call to (_Cfunc_hipFoo)", Kind: packages.TypeError},
		{Pos: "/m/p.go:5:12", Msg: "some error", Kind: packages.TypeError},
		{Pos: "/m/q.go:1:1", Msg: "cannot use x (variable of type int) as _Ctype_float value", Kind: packages.TypeError},
		{Pos: "-", Msg: "# p", Kind: packages.ListError},
	}}
	assert.Equal(t, []string{"/m/p.go:5:12", "/m/p.go:5:24", "/m/q.go:1:1"}, slices.Sorted(maps.Keys(s.typeErrors(p))))
}

// TestParseFailureGeneratedHeader: a type that synthesis's own header uses
// and nothing declares (a runtime type the runtime's header lacks:
// zerfoo's cudaDataType) is a name of the Go file that includes it.
func TestParseFailureGeneratedHeader(t *testing.T) {
	f := parseFailure("# example.com/cublas\ncgo: \ncc errors for preamble:\nIn file included from internal/cublas/cublas.go:7:\n/home/u/.cache/hiplint/gen-428b/hiplint_synth.h:13:73: error: unknown type name 'cudaDataType'\n   13 | int cublasGemmEx(cudaDataType);\n")
	assert.Equal(t, "", f.other)
	assert.Equal(t, map[string]map[string]kind{"internal/cublas/cublas.go": {"cudaDataType": kindType}}, f.inC)
}
