package main

import (
	"sort"
	"strings"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
)

func names(l *list) []string {
	var out []string
	for _, e := range l.entries {
		s := e.kind + " " + e.name
		if e.value != "" {
			s += " = " + e.value
		}
		out = append(out, s)
	}
	sort.Strings(out)
	return out
}

func TestEvalC(t *testing.T) {
	consts := map[string]int64{"A": 4}
	macros := map[string]string{"M": "(A << 2)", "N": "M | 0x1u"}
	for expr, want := range map[string]int64{
		"0x10":             16,
		"010":              8,
		"1u << 31":         1 << 31,
		"(int)0x80000000":  0x80000000,
		"-1":               -1,
		"~0":               -1,
		"A + 1":            5,
		"N":                17,
		"(unsigned int)M":  16,
		"(hipError_t)(3)":  3,
		"0xFFFFFFFFFFFFFF": 0xFFFFFFFFFFFFFF,
	} {
		got, ok := evalC(expr, consts, macros, 0)
		if assert.True(t, ok, expr) {
			assert.Equal(t, want, got, expr)
		}
	}
	for _, expr := range []string{"((void*)0)", "B + 1", "\"x\"", ""} {
		_, ok := evalC(expr, consts, macros, 0)
		assert.False(t, ok, expr)
	}
}

// The C reader lists what a preprocessed header declares: functions (and
// inline definitions), enum constants with their values (implicit ones
// counted on), struct fields (an anonymous member's fields are the
// enclosing struct's), typedefs, tags and in-scope macros.
func TestParseC(t *testing.T) {
	pre := `# 1 "/inc/hip/hip_runtime_api.h"
#define HIP_INCLUDE_HIP_HIP_RUNTIME_API_H 
#define hipHostMallocMapped 0x2
#define __HIP_INTERNAL 1
#define DEPRECATED(msg) __attribute__((deprecated(msg)))
typedef enum hipJitOption {
  hipJitOptionMaxRegisters = 0,
  hipJitOptionThreadsPerBlock,
  hipJitOptionNumOptions
} hipJitOption;
typedef struct hipDeviceProp_t {
  char name[256];
  union { int reserved[4]; int gcnArch; };
  struct { int x, y; } dims;
  unsigned int isBit : 1;
  void (*callback)(void* p);
} hipDeviceProp_t, *hipDevicePropPtr;
typedef struct ihipStream_t* hipStream_t;
typedef void (*hipHostFn_t)(void* userData);
struct hipExtent { size_t width; };
__attribute__((visibility("default"))) hipError_t hipMalloc(void** ptr, size_t size) __attribute__((warn_unused_result));
static inline struct hipExtent make_hipExtent(size_t w) { struct hipExtent e; e.width = w; return e; }
hipError_t __hipPushCallConfiguration(int x);
# 1 "/usr/include/stdlib.h"
void* malloc(size_t n);
#define EXIT_FAILURE 1
`
	l := newList()
	parseC(l, pre, func(f string) bool { return strings.Contains(f, "/hip/") }, "test", true)
	assert.Equal(t, []string{
		"enum hipJitOptionMaxRegisters = 0",
		"enum hipJitOptionNumOptions = 2",
		"enum hipJitOptionThreadsPerBlock = 1",
		"enumtype hipJitOption",
		"field hipDeviceProp_t.callback",
		"field hipDeviceProp_t.dims",
		"field hipDeviceProp_t.gcnArch",
		"field hipDeviceProp_t.isBit",
		"field hipDeviceProp_t.name",
		"field hipDeviceProp_t.reserved",
		"field hipExtent.width",
		"func hipMalloc",
		"func make_hipExtent",
		"macro HIP_INCLUDE_HIP_HIP_RUNTIME_API_H",
		"macro hipHostMallocMapped = 2",
		"struct hipDeviceProp_t",
		"struct hipExtent",
		"typedef hipDevicePropPtr",
		"typedef hipDeviceProp_t",
		"typedef hipHostFn_t",
		"typedef hipJitOption",
		"typedef hipStream_t",
	}, names(l))
	// Each declaration is kept with its header, for -skeletons.
	var headers []string
	for _, d := range l.decls {
		headers = append(headers, d.header)
	}
	assert.Contains(t, headers, "hip/hip_runtime_api.h")
	assert.NotContains(t, headers, "stdlib.h")
}

// The Cython reader lists the declarations of cuda-python's bindings and
// writes them as C: tags with their keyword, anonymous members inlined,
// the interop blocks and opaque tags left out.
func TestParsePXD(t *testing.T) {
	src := `cdef extern from "cuda.h":

    cdef struct CUctx_st:
        pass
    ctypedef CUctx_st* CUcontext

    cdef enum CUjit_option_enum:
        CU_JIT_MAX_REGISTERS = 0
        CU_JIT_NUM_OPTIONS = 34

    ctypedef CUjit_option_enum CUjit_option

    ctypedef enum CUgreenCtxCreate_flags:
        CU_GREEN_CTX_DEFAULT_STREAM = 1

    cdef struct anon_struct0:
        unsigned int x
        unsigned int y

    cdef union anon_union1:
        char pad[64]
        anon_struct0 clusterDim

    cdef struct CUlaunchAttribute_st:
        CUjit_option id
        anon_union1 value

    ctypedef void (*CUhostFn)(void* userData)

cdef extern from "":
    cdef struct CUeglFrame_st:
        unsigned int width

{{if 'cuInit' in found_functions}}

cdef CUresult cuInit(unsigned int Flags) except ?CUDA_ERROR_NOT_FOUND nogil
{{endif}}

cdef CUresult cuLaunchAttributeGet(CUlaunchAttribute_st* attr, CUjit_option_enum opt) except ?CUDA_ERROR_NOT_FOUND nogil

cdef CUresult cuGraphicsEGLRegisterImage(CUgraphicsResource* r, EGLImageKHR image, unsigned int flags) except ?CUDA_ERROR_NOT_FOUND nogil

cdef enum: CU_IPC_HANDLE_SIZE = 64
`
	l := newList()
	parsePXD(l, src, "c12", true)
	assert.Equal(t, []string{
		"enum CU_GREEN_CTX_DEFAULT_STREAM = 1",
		"enum CU_JIT_MAX_REGISTERS = 0",
		"enum CU_JIT_NUM_OPTIONS = 34",
		"enumtype CUjit_option_enum",
		"field CUlaunchAttribute_st.id",
		"field CUlaunchAttribute_st.value",
		"func cuInit",
		"func cuLaunchAttributeGet",
		"macro CU_IPC_HANDLE_SIZE = 64",
		"struct CUlaunchAttribute_st",
		"typedef CUcontext",
		"typedef CUgreenCtxCreate_flags",
		"typedef CUhostFn",
		"typedef CUjit_option",
	}, names(l))
	assert.True(t, l.opaque["CUctx_st"])
	texts := map[string]string{}
	for _, d := range l.decls {
		texts[d.names[0]] = d.text
	}
	assert.Equal(t, "typedef struct CUctx_st* CUcontext;", texts["typedef CUcontext"])
	assert.Equal(t, "CUresult cuLaunchAttributeGet(struct CUlaunchAttribute_st* attr, enum CUjit_option_enum opt);", texts["func cuLaunchAttributeGet"])
	assert.Equal(t, "struct CUlaunchAttribute_st {\n  CUjit_option id;\n  union {\n    char pad[64];\n    struct {\n      unsigned int x;\n      unsigned int y;\n    } clusterDim;\n  } value;\n};", texts["struct CUlaunchAttribute_st"])
	assert.Equal(t, "typedef enum {\n  CU_GREEN_CTX_DEFAULT_STREAM = 1,\n} CUgreenCtxCreate_flags;", texts["typedef CUgreenCtxCreate_flags"])
}

// HIPIFY's tables add the names the bindings lack, leaving out what CUDA
// removed, interop and the excluded names.
func TestParseHIPIFY(t *testing.T) {
	src := `const std::map<llvm::StringRef, hipCounter> CUDA_RUNTIME_FUNCTION_MAP {
  {"cudaMalloc",                 {"hipMalloc",                 "", CONV_MEMORY, API_RUNTIME, SEC::MEMORY}},
  {"cudaMemcpyToSymbol",         {"hipMemcpyToSymbol",         "", CONV_MEMORY, API_RUNTIME, SEC::MEMORY}},
  {"cudaThreadExit",             {"hipDeviceReset",            "", CONV_THREAD, API_RUNTIME, SEC::THREAD, CUDA_REMOVED}},
  {"cudaGLGetDevices",           {"hipGLGetDevices",           "", CONV_OPENGL, API_RUNTIME, SEC::OPENGL}},
  {"cudaOccupancyMaxPotentialBlockSize", {"hipOccupancyMaxPotentialBlockSize", "", CONV_OCCUPANCY, API_RUNTIME, SEC::OCCUPANCY}},
  {"cublasCreate",               {"hipblasCreate",             "", CONV_LIB_FUNC, API_BLAS, 2}},
};
const std::map<llvm::StringRef, cudaAPIversions> CUDA_RUNTIME_FUNCTION_VER_MAP {
  {"cudaMemset",                 {"hipMemset",                 "", CONV_MEMORY, API_RUNTIME, SEC::MEMORY}},
};
`
	l := newList()
	l.add(entry{kind: "func", name: "cudaMalloc"}, false)
	parseHIPIFY(l, src, true)
	assert.Equal(t, []string{"func cudaMalloc", "func cudaMemcpyToSymbol"}, names(l))

	types := `const std::map<llvm::StringRef, hipCounter> CUDA_DRIVER_TYPE_NAME_MAP {
  {"CU_LAUNCH_ATTRIBUTE_MAX",    {"hipLaunchAttributeMax",     "", CONV_NUMERIC_LITERAL, API_DRIVER, SEC::DATA_TYPES}},
  {"CUDA_CB",                    {"",                          "", CONV_DEFINE, API_DRIVER, SEC::DATA_TYPES}},
  {"CUctx_st",                   {"ihipCtx_t",                 "", CONV_TYPE, API_DRIVER, SEC::DATA_TYPES}},
  {"CU_NEW_CONSTANT",            {"HIP_NEW_CONSTANT",          "", CONV_NUMERIC_LITERAL, API_DRIVER, SEC::DATA_TYPES}},
};
`
	l = newList()
	l.opaque["CUctx_st"] = true
	parseHIPIFY(l, types, false)
	assert.Equal(t, []string{"enum CU_NEW_CONSTANT", "macro CUDA_CB"}, names(l))
}

// A list prefers the newer source's values and a struct's fields come from
// one source; a macro that another version declares as a type is listed once.
func TestListMerge(t *testing.T) {
	l := newList()
	l.add(entry{kind: "enum", name: "X", value: "1"}, false)
	l.add(entry{kind: "enum", name: "X", value: "2"}, true)
	l.add(entry{kind: "enum", name: "Y", value: "3"}, true)
	l.add(entry{kind: "enum", name: "Y", value: "4"}, false)
	l.addFields("S", []string{"a", "old"}, "v1", false)
	l.addFields("S", []string{"a", "b"}, "v2", true)
	l.addFields("S", []string{"older"}, "v0", false)
	l.add(entry{kind: "typedef", name: "T"}, false)
	l.add(entry{kind: "macro", name: "T"}, true)
	path := t.TempDir() + "/l.txt"
	assert.NoError(t, l.write(path, "test"))
	assert.Equal(t, []string{"enum X = 2", "enum Y = 3", "field S.a", "field S.b", "typedef T"}, names(l))
}
