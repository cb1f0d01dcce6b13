package cgocall

import (
	"go/types"
	"testing"

	"github.com/hiplint/hiplint/internal/hipapi"
)

func TestPropFamily(t *testing.T) {
	named := func(name string) types.Type {
		return types.NewNamed(types.NewTypeName(0, nil, name, nil), types.NewStruct(nil, nil), nil)
	}
	for _, c := range []struct {
		t    types.Type
		want hipapi.Family
	}{
		{named("_Ctype_hipDeviceProp_t"), hipapi.HIP},
		{types.NewPointer(named("_Ctype_struct_hipDeviceProp_t")), hipapi.HIP},
		{named("_Ctype_hipDeviceProp_tR0600"), hipapi.HIP},
		{named("_Ctype_struct_cudaDeviceProp"), hipapi.CUDARuntime},
		{named("_Ctype_int"), 0},
		{nil, 0},
	} {
		if got := PropFamily(c.t); got != c.want {
			t.Errorf("PropFamily(%v) = %v, want %v", c.t, got, c.want)
		}
	}
	if !hipapi.InitializesRuntime("hipMalloc") || hipapi.InitializesRuntime("hiprtcCompileProgram") || hipapi.InitializesRuntime("cudaMalloc") {
		t.Error("InitializesRuntime")
	}
}
