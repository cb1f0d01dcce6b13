package flow

import (
	"go/ast"
	"go/types"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
)

func TestElemValuesAt(t *testing.T) {
	src := `package p
type T struct{ ptr *int }
type pool struct{ free []*T }
func mk() *T { return nil }
func fill(p *pool, n int) []*T {
	var outs []*T
	for range n {
		t := mk()
		outs = append(outs, t)
	}
	m := map[string]*T{}
	m["a"] = outs[0]
	p.free = append(p.free, mk())
	for _, o := range outs {
		_ = o
	}
	x := outs
	return x
}
`
	c := check(t, src)
	s := indexSources(c.info, []*ast.File{c.file})
	defs := map[string]types.Object{}
	ast.Inspect(c.file, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && c.info.Defs[id] != nil {
			defs[id.Name] = c.info.Defs[id]
		}
		return true
	})
	v := func(name string) types.Object { return defs[name] }
	o := v("o")
	require.NotNil(t, o)
	exprs := func(l Loc) ([]string, string, bool) {
		vals, rest, ok := s.ElemValuesAt(c.info, l)
		var out []string
		for _, src := range vals {
			out = append(out, types.ExprString(src.Expr))
		}
		return out, rest, ok
	}
	outs := v("outs")
	require.NotNil(t, outs)
	vals, rest, ok := exprs(Loc{outs, "[0].ptr"})
	assert.True(t, ok)
	assert.Equal(t, []string{"t"}, vals, "what the loop appends")
	assert.Equal(t, ".ptr", rest)
	vals, rest, _ = exprs(Loc{v("m"), "[k]"})
	assert.Equal(t, []string{"outs[0]"}, vals, "a map's stored element")
	assert.Equal(t, "", rest)
	vals, rest, _ = exprs(Loc{v("p"), ".free[i].ptr"})
	assert.Equal(t, []string{"mk()"}, vals, "a field's container: what is appended to it anywhere")
	assert.Equal(t, ".ptr", rest)
	vals, rest, _ = exprs(Loc{o, ".ptr"})
	assert.Equal(t, []string{"t"}, vals, "a range loop's value receives the elements")
	assert.Equal(t, ".ptr", rest)
	vals, _, _ = exprs(Loc{v("x"), "[0]"})
	assert.Equal(t, []string{"t"}, vals, "through a copy of the slice")
	_, _, ok = exprs(Loc{outs, ""})
	assert.False(t, ok, "the container itself is no element")
	_, _, ok = exprs(Loc{v("p"), ".nope[0]"})
	assert.False(t, ok, "no such field")
}
