package flow

import (
	"go/types"
	"testing"
)

func TestIsVariadicParam(t *testing.T) {
	integer := types.Typ[types.Int]
	params := types.NewTuple(types.NewVar(0, nil, "a", integer), types.NewVar(0, nil, "b", types.NewSlice(integer)))
	variadic := types.NewSignatureType(nil, nil, nil, params, nil, true)
	plain := types.NewSignatureType(nil, nil, nil, params, nil, false)
	for _, c := range []struct {
		sig  *types.Signature
		i    int
		want bool
	}{{variadic, 1, true}, {variadic, 0, false}, {variadic, Receiver, false}, {plain, 1, false}} {
		if got := isVariadicParam(c.sig, c.i); got != c.want {
			t.Errorf("IsVariadicParam(%v, %d) = %v, want %v", c.sig, c.i, got, c.want)
		}
	}
}
