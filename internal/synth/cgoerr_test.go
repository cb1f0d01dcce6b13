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
