package flow

import (
	"go/types"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
)

// TestMemoryRefs: the parameters behind a location and its aliases, but
// not a whole integer parameter, which carries no memory, nor a local.
func TestMemoryRefs(t *testing.T) {
	c := check(t, `package p
import "unsafe"
type buf struct{ ptr unsafe.Pointer; n int }
func f(p unsafe.Pointer, n int, b *buf, h uintptr) { var local unsafe.Pointer; _ = local }
`)
	sig := c.pkg.Scope().Lookup("f").(*types.Func).Signature()
	p, n, b, h := sig.Params().At(0), sig.Params().At(1), sig.Params().At(2), sig.Params().At(3)
	local := types.NewVar(0, c.pkg, "local", types.Typ[types.UnsafePointer])
	a := Aliases{}
	a.Add(Loc{Root: local}, Loc{Root: p})
	a.Add(Loc{Root: p}, Loc{Root: n})
	a.Add(Loc{Root: n}, Loc{Root: b, Path: ".n"})
	a.Add(Loc{Root: p}, Loc{Root: h})
	assert.Equal(t, []Ref{{Param: 0}, {Param: 3}, {Param: 2, Path: ".n"}}, a.MemoryRefs(sig, Loc{Root: local}),
		"p, h and b.n (a path: memory inside the argument), in Of's order; not n nor the local")
	assert.Nil(t, a.MemoryRefs(nil, Loc{Root: p}), "no signature, no parameters")
}
