package xnack

import (
	"go/types"
	"testing"
)

func TestFirstResult(t *testing.T) {
	str, integer := types.Typ[types.String], types.Typ[types.Int]
	results := types.NewTuple(types.NewVar(0, nil, "a", integer), types.NewVar(0, nil, "b", str),
		types.NewVar(0, nil, "c", integer), types.NewVar(0, nil, "d", integer))
	isInt := func(t types.Type) bool { return t == integer }
	var asked []int
	got := firstResult(results, isInt, func(i int) *int {
		asked = append(asked, i)
		if i < 2 {
			return nil
		}
		return &i
	})
	if got == nil || *got != 2 || len(asked) != 2 || asked[0] != 0 || asked[1] != 2 {
		t.Fatalf("firstResult = %v after asking %v, want 2 after [0 2]", got, asked)
	}
	none := firstResult(results, func(types.Type) bool { return false }, func(i int) *int { return &i })
	if none != nil {
		t.Fatalf("firstResult of no accepted result = %v, want nil", *none)
	}
}

func TestIsBool(t *testing.T) {
	named := types.NewNamed(types.NewTypeName(0, nil, "ok", nil), types.Typ[types.Bool], nil)
	for typ, want := range map[types.Type]bool{types.Typ[types.Bool]: true, named: true,
		types.Typ[types.UntypedBool]: false, types.Typ[types.Int]: false} {
		if isBool(typ) != want {
			t.Errorf("isBool(%v) = %v, want %v", typ, !want, want)
		}
	}
}
