package main

import (
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
)

// TestRuntimeNamesKeepCTypes: packages that use names hiplint's runtime
// declarations lacked before issue 30 (include guards tested with #error,
// hipJitOptionNumOptions, HIP 5's gcnArch field, CU_JIT_NUM_OPTIONS,
// CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_MEM_OPS, make_cudaExtent,
// make_hipExtent) load with their C types on a machine without GPU headers:
// no cgo note, no error, and their hazards found. Before, each fell to tier 3
// ("cgo failed ...; analyzed from its Go files without C types"), and a
// gcnArch inside an anonymous union would compile in C yet be no field for
// Go. internal/hipapi's TestRuntimeDeclarationsCoverage holds the headers to
// every name of the APIs; this holds them to what cgo makes of them.
func TestRuntimeNamesKeepCTypes(t *testing.T) {
	t.Parallel()
	res := runFresh(t, freshEnv(t), "./testdata/src/apinames/...")
	require.Equal(t, exitFindings, res.code, "stderr:\n%s", res.stderr)
	var want []mark
	for _, f := range []string{"testdata/src/apinames/hipnames/hipnames.go", "testdata/src/apinames/cudanames/cudanames.go"} {
		want = append(want, markedHazards(t, f)...)
	}
	require.Len(t, want, 2)
	assert.Equal(t, sortedMarks(want), marksOf(parseText(t, res.stdout)))
	assert.NotContains(t, res.stderr, "cgo failed")
	assert.NotRegexp(t, `testdata/src/apinames/\w+: `, res.stderr, "no package error")
}
