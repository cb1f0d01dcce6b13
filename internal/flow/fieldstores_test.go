package flow

import (
	"go/ast"
	"go/types"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestStoresOf(t *testing.T) {
	c := check(t, `package p
type pool struct {
	mods   []*int
	byName map[string]*int
	m      *int
	n      int
}
func f(p *pool, q pool, other *int) {
	m := new(int)
	p.mods = append(p.mods, m)
	p.byName["k"] = m
	q.m = m
	p.m = other
	p.n = *m
	local := []*int{}
	local = append(local, m)
	func() { p.m = m }()
}`)
	fn := c.file.Decls[1].(*ast.FuncDecl)
	var m types.Object
	for id, o := range c.info.Defs {
		if id.Name == "m" && o.Parent() != nil {
			m = o
		}
	}
	isPtr := func(t types.Type) bool { _, ok := t.(*types.Pointer); return ok }
	var got []string
	for _, st := range StoresOf(c.info, fn.Body, map[types.Object]bool{m: true}, isPtr) {
		got = append(got, types.ExprString(st.To)+map[bool]string{true: " add", false: ""}[st.Add])
	}
	// Not p.m = other (another value), p.n = *m (no pointer), local (no field)
	// nor the store in the closure.
	assert.Equal(t, []string{"p.mods add", "p.byName add", "q.m"}, got)
	assert.Nil(t, StoresOf(c.info, fn.Body, nil, isPtr))
}
