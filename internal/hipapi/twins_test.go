package hipapi

import (
	"strings"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
)

func TestTwin(t *testing.T) {
	assert.Equal(t, "cudaDeviceSynchronize", Twin("hipDeviceSynchronize", CUDARuntime))
	assert.Equal(t, "cuCtxSynchronize", Twin("hipDeviceSynchronize", CUDADriver))
	assert.Equal(t, "hipDeviceSynchronize", Twin("hipDeviceSynchronize", HIP))
	assert.Equal(t, "CUDA_ERROR_INVALID_VALUE", Twin("hipErrorInvalidValue", CUDADriver))
	assert.Equal(t, "cudaFreeHost", Twin("hipHostFree", CUDARuntime))
	// No CUDA runtime twin of a module unload, and unknown names: unchanged.
	assert.Equal(t, "hipModuleUnload", Twin("hipModuleUnload", CUDARuntime))
	assert.Equal(t, "hipNoSuchThing", Twin("hipNoSuchThing", CUDADriver))
	// Every function named is a row of the table, in its own family.
	for _, row := range twins {
		for i, name := range row {
			if name == "" || strings.Contains(strings.ToLower(name), "error") {
				continue // no twin, or a status code
			}
			f, ok := Lookup(name)
			if assert.True(t, ok, name) {
				assert.Equal(t, Family(i+1), FamilyOf(f.Name), name)
			}
		}
	}
}
