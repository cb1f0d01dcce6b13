package modulebalance

import (
	"go/types"
	"testing"

	"github.com/hiplint/hiplint/internal/flow"
	"github.com/hiplint/hiplint/internal/testenv/assert"
)

func TestFillRoots(t *testing.T) {
	a := types.NewVar(0, nil, "a", types.Typ[types.Int])
	b := types.NewVar(0, nil, "b", types.Typ[types.Int])
	var scratch map[types.Object]bool
	got := fillRoots(&scratch, map[flow.Loc]int{{Root: a}: 1, {Root: a, Path: ".f"}: 2, {Root: b}: 3})
	assert.Equal(t, map[types.Object]bool{a: true, b: true}, got)
	again := fillRoots(&scratch, map[flow.Loc]bool{{Root: b, Path: ".g"}: true})
	assert.Equal(t, map[types.Object]bool{b: true}, again)   // cleared
	assert.Equal(t, map[types.Object]bool{b: true}, scratch) // the same map, reused
}
