package runtimecheck

import (
	"testing"

	"github.com/hiplint/hiplint/internal/hipapi"
	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
)

func TestPrototypesCoverTheTable(t *testing.T) {
	p, ok := prototypeOf("hipModuleLaunchKernel")
	require.True(t, ok)
	assert.Equal(t, "hipError_t", p.Result)
	require.Len(t, p.Params, 11)
	assert.Equal(t, "hipStream_t", p.Params[8].Type)
	p, ok = prototypeOf("cudaMemcpy")
	require.True(t, ok)
	assert.Equal(t, "enum cudaMemcpyKind", p.Params[3].Type)
	assert.Equal(t, cPointer, kindOf("hipModule_t"))
	assert.Equal(t, cInteger, kindOf("hipMemcpyKind"))
	assert.Equal(t, cPointer, kindOf("CUdeviceptr"))
	assert.Equal(t, cOpaque, kindOf("dim3"))

	var missing []string
	for _, f := range hipapi.All() {
		if _, ok := prototypeOf(f.Name); !ok {
			missing = append(missing, f.Name)
		}
	}
	t.Logf("table rows without a fixture prototype (not wrapped): %v", missing)
	assert.Less(t, len(missing), 15)
}
