package flow

import (
	"go/token"
	"go/types"
	"testing"
)

func TestFollowLocals(t *testing.T) {
	pkg := types.NewPackage("p", "p")
	fn := types.NewScope(pkg.Scope(), token.NoPos, token.NoPos, "f")
	local := types.NewVar(token.NoPos, pkg, "x", types.Typ[types.Int])
	fn.Insert(local)
	global := types.NewVar(token.NoPos, pkg, "g", types.Typ[types.Int])
	pkg.Scope().Insert(global)
	field := types.NewField(token.NoPos, pkg, "f", types.Typ[types.Int], false)
	if !followLocals(local) || followLocals(global) || followLocals(field) {
		t.Fatalf("FollowLocals: local %v, package variable %v, field %v; want true, false, false",
			followLocals(local), followLocals(global), followLocals(field))
	}
}
