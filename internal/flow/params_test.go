package flow

import (
	"go/token"
	"go/types"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
)

func TestParams(t *testing.T) {
	v := func(name string) *types.Var { return types.NewParam(token.NoPos, nil, name, types.Typ[types.Int]) }
	recv, a, b := v("r"), v("a"), v("b")
	method := types.NewSignatureType(recv, nil, nil, types.NewTuple(a, b), nil, false)
	var got []string
	for i, p := range Params(method) {
		got = append(got, p.Name())
		assert.Equal(t, p, ParamVar(method, i))
		j, ok := paramIndex(method, p)
		assert.True(t, ok)
		assert.Equal(t, i, j)
	}
	assert.Equal(t, []string{"r", "a", "b"}, got)
	for range Params(method) {
		break // stops when told
	}
	fn := types.NewSignatureType(nil, nil, nil, types.NewTuple(a), nil, false)
	got = nil
	for _, p := range Params(fn) {
		got = append(got, p.Name())
	}
	assert.Equal(t, []string{"a"}, got)
	assert.Nil(t, ParamVar(fn, Receiver))
	assert.Nil(t, ParamVar(fn, 1))
}
