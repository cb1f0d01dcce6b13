package synth

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
)

// TestInferNestedFields: a field selected through fields of a synthesized
// struct (params.poolProps.location._type) makes the fields between
// structs of their own, declared before the struct that holds them; the
// declarations compile.
func TestInferNestedFields(t *testing.T) {
	info, files := checkFake(t, `package p

import "C"

func alloc(g C.libGraph_t) {
	var params C.libAllocParams
	params.poolProps.allocType = 1
	params.poolProps.location._type = C.LIB_LOCATION_DEVICE
	params.poolProps.location.id = 0
	params.bytesize = 64
	C.libAddAlloc(g, &params)
}
`)
	names := []string{"libGraph_t", "libAllocParams", "LIB_LOCATION_DEVICE", "libAddAlloc"}
	got := text(infer(info, files, names, nil), names, nil)
	for _, want := range []string{
		"typedef struct hiplint_synth_hiplint_nested_libAllocParams_poolProps_location { int _type; int id; } hiplint_nested_libAllocParams_poolProps_location;\n",
		"typedef struct hiplint_synth_hiplint_nested_libAllocParams_poolProps { int allocType; hiplint_nested_libAllocParams_poolProps_location location; } hiplint_nested_libAllocParams_poolProps;\n",
		"typedef struct hiplint_synth_libAllocParams { int bytesize; hiplint_nested_libAllocParams_poolProps poolProps; } libAllocParams;\n",
		"int libAddAlloc(libGraph_t, libAllocParams*);\n",
	} {
		assert.Contains(t, got, want)
	}
	assert.Less(t, strings.Index(got, "hiplint_synth_hiplint_nested_libAllocParams_poolProps_location {"), strings.Index(got, "hiplint_synth_hiplint_nested_libAllocParams_poolProps {"))
	assert.Less(t, strings.Index(got, "hiplint_synth_hiplint_nested_libAllocParams_poolProps {"), strings.Index(got, "hiplint_synth_libAllocParams {"))

	if _, err := exec.LookPath("cc"); err != nil {
		t.Skip("no C compiler")
	}
	cmd := exec.Command("cc", "-fsyntax-only", "-x", "c", "-")
	cmd.Stdin = strings.NewReader(got)
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s\n%s", got, out)
}
