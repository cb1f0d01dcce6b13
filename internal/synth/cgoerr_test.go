package synth

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestParseFailurePlatform(t *testing.T) {
	out := "# example.com/p\nIn file included from p/platform.go:7:\n/usr/include/hip/hip_runtime_api.h:6711:2: error: #error (\"Must define exactly one of __HIP_PLATFORM_AMD__ or __HIP_PLATFORM_NVIDIA__\");\n 6711 | #error(\"Must define exactly one of __HIP_PLATFORM_AMD__ or __HIP_PLATFORM_NVIDIA__\");\n      |  ^~~~~\n"
	f := parseFailure(out)
	assert.Equal(t, "", f.other)
	if assert.NotNil(t, f.platform) {
		assert.Equal(t, fileLine{file: "p/platform.go", line: 7}, *f.platform)
	}
}

// TestParseFailureGeneratedHeader: a type that synthesis's own header uses
// and nothing declares (a runtime type the runtime's header lacks:
// zerfoo's cudaDataType) is a name of the Go file that includes it.
func TestParseFailureGeneratedHeader(t *testing.T) {
	f := parseFailure("# example.com/cublas\ncgo: \ncc errors for preamble:\nIn file included from internal/cublas/cublas.go:7:\n/home/u/.cache/hiplint/gen-428b/hiplint_synth.h:13:73: error: unknown type name 'cudaDataType'\n   13 | int cublasGemmEx(cudaDataType);\n")
	assert.Equal(t, "", f.other)
	assert.Equal(t, map[string]map[string]kind{"internal/cublas/cublas.go": {"cudaDataType": kindType}}, f.inC)
}
