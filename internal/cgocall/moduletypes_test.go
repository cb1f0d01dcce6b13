package cgocall

import (
	"go/types"
	"testing"
)

func TestModuleAndStatusTypes(t *testing.T) {
	named := func(name string) types.Type {
		return types.NewNamed(types.NewTypeName(0, nil, name, nil), types.Typ[types.Uintptr], nil)
	}
	for _, tc := range []struct {
		t              types.Type
		module, status bool
	}{
		{named("_Ctype_hipModule_t"), true, false},
		{named("_Ctype_CUlibrary"), true, false},
		{named("_Ctype_hipError_t"), false, true},
		{named("_Ctype_CUresult"), false, true},
		{named("_Ctype_hipStream_t"), false, false},
		{types.Typ[types.Uintptr], false, false},
	} {
		if got := IsModuleType(tc.t); got != tc.module {
			t.Errorf("IsModuleType(%v) = %v", tc.t, got)
		}
		if got := IsStatusType(tc.t); got != tc.status {
			t.Errorf("IsStatusType(%v) = %v", tc.t, got)
		}
	}
}
