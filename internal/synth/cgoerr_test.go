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
